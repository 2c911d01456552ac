package sink

import (
	"errors"
	"fmt"
	"sync"

	"github.com/mongoload/mongoload/internal/results"
)

// FanoutBuffer is how many snapshots a Fanout holds for a sink that has
// fallen behind before it drops them: about a minute at 1 s intervals.
const FanoutBuffer = 64

// Fanout delivers snapshots to several sinks, each through its own buffered
// channel and goroutine, so a slow sink never blocks the caller. If a sink's
// buffer is full the snapshot is dropped for that sink and counted; Close
// reports every drop in the result's Notes (or, without a result, in its
// error), so a gap is never silent.
//
// Interval and Close must be called from one goroutine, Close last.
type Fanout struct {
	mu     sync.Mutex
	closed bool
	sent   int64
	outs   []*outlet
}

// outlet is one sink with its queue.
type outlet struct {
	sink    Sink
	ch      chan *Snapshot
	dropped int64 // guarded by Fanout.mu
	res     *results.Result
	err     error
	done    chan struct{}
}

// NewFanout starts one goroutine per sink; Close ends them.
func NewFanout(sinks ...Sink) *Fanout {
	f := &Fanout{}
	for _, s := range sinks {
		o := &outlet{sink: s, ch: make(chan *Snapshot, FanoutBuffer), done: make(chan struct{})}
		f.outs = append(f.outs, o)
		go o.run()
	}
	return f
}

func (o *outlet) run() {
	defer close(o.done)
	for s := range o.ch {
		o.sink.Interval(s)
		s.Interval.Release() // retained when queued
	}
	// o.res was set before o.ch was closed, so reading it here is ordered.
	o.err = o.sink.Close(o.res)
}

// Interval queues s for every sink without ever waiting: a sink whose
// buffer is full misses it, and the miss is counted. Each queued delivery
// retains the interval until its sink has read it.
func (f *Fanout) Interval(s *Snapshot) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return
	}
	f.sent++
	for _, o := range f.outs {
		s.Interval.Retain() // the outlet releases it once its sink has read it
		select {
		case o.ch <- s:
		default:
			s.Interval.Release()
			o.dropped++
		}
	}
}

// Dropped returns how many snapshots each sink missed, in NewFanout's order.
func (f *Fanout) Dropped() []int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	d := make([]int64, len(f.outs))
	for i, o := range f.outs {
		d[i] = o.dropped
	}
	return d
}

// Close appends a note to res for every sink that missed snapshots, lets
// each sink finish its queued snapshots, hands it res, and waits for all of
// them. It returns the sinks' errors joined, each prefixed with the sink's
// name.
func (f *Fanout) Close(res *results.Result) error {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return errors.New("report: Fanout closed twice")
	}
	f.closed = true
	drops := f.dropNotes()
	if res != nil {
		res.Notes = append(res.Notes, drops...)
	}
	for _, o := range f.outs {
		o.res = res
		close(o.ch)
	}
	f.mu.Unlock()

	var errs []error
	if res == nil {
		for _, d := range drops {
			errs = append(errs, errors.New(d))
		}
	}
	for _, o := range f.outs {
		<-o.done
		if o.err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", sinkName(o.sink), o.err))
		}
	}
	return errors.Join(errs...)
}

func (f *Fanout) dropNotes() []string {
	var notes []string
	for _, o := range f.outs {
		if o.dropped > 0 {
			notes = append(notes, fmt.Sprintf(
				"%s fell behind and missed %d of %d interval snapshots: its per-interval output has gaps (whole-run totals are unaffected)",
				sinkName(o.sink), o.dropped, f.sent))
		}
	}
	return notes
}
