package metrics

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Interval is everything recorded between Start and End. It is immutable
// once returned, so several sinks may read it concurrently.
type Interval struct {
	Start, End time.Time
	Ops        []OpInterval // indexed like Recorder.Ops
	// Load is what the load model did; the engine sets its gauges before
	// handing the interval on.
	Load Load
	// ClientCPU is this process's CPU time (user + system) during the
	// interval, set once per interval by whoever hands it on to the sinks;
	// nil where it was not read.
	ClientCPU *time.Duration
	// RunTotals are the run's whole-run totals, this interval included: the
	// one whole-run total, kept by the collector, which keeps adding to it.
	// Whoever keeps the pointer must read it only once the run is over
	// (the run's fallback result when it ends early). Nil where no
	// collector keeps totals.
	RunTotals *Totals
	// refs counts the holders of an interval made by a Recorder; the last
	// Release returns its histograms to the recorder's pool.
	refs atomic.Int32
	pool *histPool
}

// Retain records one more holder of iv (a sink reading it later, on
// another goroutine): iv's histograms stay valid until it calls Release.
func (iv *Interval) Retain() {
	if iv.pool != nil {
		iv.refs.Add(1)
	}
}

// Release says a holder is done with iv. The Recorder's caller holds the
// interval it got; when the last holder releases it, its histograms go
// back to the recorder to be reused by a later interval (a new ~190 KB
// histogram per operation per interval is most of the collector's cost).
// Using an interval after releasing it is a bug: its histograms are
// detached so that it fails loudly instead of reading another interval.
// An interval nobody releases is simply left to the garbage collector.
func (iv *Interval) Release() {
	if iv.pool == nil {
		return
	}
	switch n := iv.refs.Add(-1); {
	case n < 0:
		panic("metrics: Interval released more often than retained")
	case n == 0:
		for i := range iv.Ops {
			o := &iv.Ops[i]
			iv.pool.put(o.Latency)
			iv.pool.put(o.Service)
			o.Latency, o.Service = nil, nil
		}
	}
}

// histPool keeps released interval histograms for reuse, at most max.
type histPool struct {
	mu   sync.Mutex
	free []*hdrhistogram.Histogram
	max  int
}

// get returns an empty histogram stamped with its interval's times.
func (p *histPool) get(start, end time.Time) *hdrhistogram.Histogram {
	p.mu.Lock()
	var h *hdrhistogram.Histogram
	if n := len(p.free); n > 0 {
		h, p.free = p.free[n-1], p.free[:n-1]
	}
	p.mu.Unlock()
	if h == nil {
		return newStamped(start, end)
	}
	h.SetStartTimeMs(start.UnixMilli())
	h.SetEndTimeMs(end.UnixMilli())
	return h
}

func (p *histPool) put(h *hdrhistogram.Histogram) {
	if h == nil {
		return
	}
	resetHistogram(h)
	p.mu.Lock()
	if len(p.free) < p.max {
		p.free = append(p.free, h)
	}
	p.mu.Unlock()
}

// OpInterval is what one operation recorded during an interval.
type OpInterval struct {
	Name string
	// Parent is set on a part of another operation (a transaction's step):
	// see InMix.
	Parent string
	// Latency holds successful operations' latencies in microseconds; in an
	// open-loop run it is the response time from the scheduled start.
	Latency *hdrhistogram.Histogram
	// Service holds service times in microseconds, measured from the actual
	// send; nil unless the Recorder was made with Options.Service.
	Service *hdrhistogram.Histogram
	// Errors counts failed operations by error class; nil if there were none.
	Errors map[string]int64
	// Overflow counts samples above Highest, which were recorded as Highest.
	Overflow int64
	// Docs is what the server did with documents, over the successful
	// operations (RecordDocs).
	Docs Docs
	// Outcomes counts named outcomes that are neither successes nor errors
	// (RecordOutcome); nil if there were none.
	Outcomes map[string]int64
}

// Count is the number of successful operations recorded.
func (o *OpInterval) Count() int64 { return o.Latency.TotalCount() }

// ErrorCount is the number of failed operations, all classes together.
func (o *OpInterval) ErrorCount() int64 { return sumErrors(o.Errors) }

// newStamped returns an empty histogram carrying its interval's start and end
// times, which the standard interval log format (.hlog) writes out.
func newStamped(start, end time.Time) *hdrhistogram.Histogram {
	h := NewHistogram()
	h.SetStartTimeMs(start.UnixMilli())
	h.SetEndTimeMs(end.UnixMilli())
	return h
}

// InMix reports whether an operation whose parent is parent is one of the
// mix's operations. This is the one rule for what counts as an operation:
// a transaction is one operation of the mix, however many steps it runs;
// its steps are parts of it, recorded and reported in rows of their own
// but never added into totals, rates, objectives or verdicts, where the
// transaction already counts once. Every consumer asks this function (or
// the InMix methods that call it).
func InMix(parent string) bool { return parent == "" }

// InMix reports whether the operation is one of the mix's (see InMix).
func (o *OpInterval) InMix() bool { return InMix(o.Parent) }

// MixTotal adds the interval's mix operations, their parts left out: the
// successes' latencies, the errors, and the count of both.
func (iv *Interval) MixTotal() (latency *hdrhistogram.Histogram, errs int64) {
	latency = NewHistogram()
	for i := range iv.Ops {
		if o := &iv.Ops[i]; o.InMix() {
			latency.Merge(o.Latency)
			errs += o.ErrorCount()
		}
	}
	return latency, errs
}

// Where a latency starts (every latency ends at the reply), by load model:
// the values of results.LoadModel.LatencyFrom, set from engine.Clock.
const (
	// FromSend: closed loop with a runner per worker, from just before the
	// driver is called.
	FromSend = "send"
	// FromReady: closed loop whose workers outnumber the in-flight limit,
	// from when the worker was ready to send, its wait for an in-flight
	// place included.
	FromReady = "ready"
	// FromDue: sessions, from when the session's operation was due after
	// its think time, its wait for an in-flight place included.
	FromDue = "due"
	// FromScheduled: open loop, from the operation's scheduled start (the
	// response time, queueing included).
	FromScheduled = "scheduled"
)
