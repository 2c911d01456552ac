package sink

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/results/resultstest"
)

// stuckSink blocks in its first Interval until released, like a terminal
// nobody reads.
type stuckSink struct {
	entered chan struct{}
	release chan struct{}
	once    sync.Once
	got     int
	closed  *results.Result
}

func (s *stuckSink) Name() string { return "stuck" }

func (s *stuckSink) Interval(*Snapshot) {
	s.once.Do(func() { close(s.entered) })
	<-s.release
	s.got++
}

func (s *stuckSink) Close(res *results.Result) error { s.closed = res; return nil }

// countSink counts what it receives, in order.
type countSink struct {
	elapsed []time.Duration
	closed  *results.Result
	err     error
}

func (s *countSink) Interval(snap *Snapshot)         { s.elapsed = append(s.elapsed, snap.Elapsed) }
func (s *countSink) Close(res *results.Result) error { s.closed = res; return s.err }

// TestFanoutNeverBlocks protects the engine from a stuck sink: Interval
// returns at once however far behind a sink is, the overflow is counted
// exactly, and Close reports it in the result's notes.
func TestFanoutNeverBlocks(t *testing.T) {
	const sent = 1000
	stuck := &stuckSink{entered: make(chan struct{}), release: make(chan struct{})}
	fast := &countSink{}
	f := NewFanout(stuck, fast)
	iv := resultstest.ClosedRun().Ivs[0]

	f.Interval(&Snapshot{Interval: iv, Elapsed: 0})
	<-stuck.entered // the stuck sink now holds one snapshot and waits

	allSent := make(chan struct{})
	go func() {
		for i := 1; i < sent; i++ {
			f.Interval(&Snapshot{Interval: iv, Elapsed: time.Duration(i)})
		}
		close(allSent)
	}()
	select {
	case <-allSent:
	case <-time.After(30 * time.Second): // a backstop, not a measurement
		t.Fatal("Fanout.Interval blocked behind a stuck sink")
	}

	// One snapshot in the sink, FanoutBuffer queued, the rest dropped.
	wantDropped := int64(sent - 1 - FanoutBuffer)
	d := f.Dropped()
	if d[0] != wantDropped {
		t.Errorf("stuck sink dropped %d, want %d", d[0], wantDropped)
	}
	close(stuck.release)
	res := &results.Result{}
	if err := f.Close(res); err != nil {
		t.Fatal(err)
	}
	if stuck.got != sent-int(wantDropped) {
		t.Errorf("stuck sink got %d snapshots, want %d", stuck.got, sent-int(wantDropped))
	}
	if got := int64(len(fast.elapsed)) + f.Dropped()[1]; got != sent {
		t.Errorf("fast sink received+dropped %d, want %d", got, sent)
	}
	want := fmt.Sprintf("stuck fell behind and missed %d of %d interval snapshots", wantDropped, sent)
	if len(res.Notes) == 0 || !strings.Contains(res.Notes[0], want) {
		t.Errorf("notes %q, want one saying %q", res.Notes, want)
	}
	if stuck.closed != res || fast.closed != res {
		t.Error("a sink's Close did not get the result")
	}
}

// TestFanoutOrder protects delivery order and the rule that a sink's Close
// comes after every snapshot queued for it.
func TestFanoutOrder(t *testing.T) {
	s := &countSink{}
	f := NewFanout(s)
	iv := resultstest.ClosedRun().Ivs[0]
	for i := range 10 {
		f.Interval(&Snapshot{Interval: iv, Elapsed: time.Duration(i)})
	}
	res := &results.Result{}
	if err := f.Close(res); err != nil {
		t.Fatal(err)
	}
	for i, e := range s.elapsed {
		if e != time.Duration(i) {
			t.Fatalf("snapshot %d has elapsed %v: out of order", i, e)
		}
	}
	if len(s.elapsed) != 10 || s.closed != res || len(res.Notes) != 0 {
		t.Errorf("got %d snapshots, closed with %p (want %p), notes %q", len(s.elapsed), s.closed, res, res.Notes)
	}
	f.Interval(&Snapshot{Interval: iv, Elapsed: 0}) // after Close: ignored, must not panic
	if err := f.Close(res); err == nil {
		t.Error("second Close succeeded")
	}
}

// TestFanoutErrors protects error reporting: every sink's error comes back,
// named, and drops without a result to note them in become errors.
func TestFanoutErrors(t *testing.T) {
	e1, e2 := errors.New("disk full"), errors.New("pipe closed")
	stuck := &stuckSink{entered: make(chan struct{}), release: make(chan struct{})}
	f := NewFanout(&countSink{err: e1}, &countSink{err: e2}, stuck)
	iv := resultstest.ClosedRun().Ivs[0]
	f.Interval(&Snapshot{Interval: iv, Elapsed: 0})
	<-stuck.entered
	for range FanoutBuffer + 1 {
		f.Interval(&Snapshot{Interval: iv, Elapsed: 0})
	}
	close(stuck.release)
	err := f.Close(nil)
	for _, want := range []error{e1, e2} {
		if !errors.Is(err, want) {
			t.Errorf("Close() = %v, want it to include %v", err, want)
		}
	}
	if err == nil || !strings.Contains(err.Error(), "*sink.countSink: disk full") || !strings.Contains(err.Error(), "stuck fell behind and missed 1 of") {
		t.Errorf("Close() = %v, want named sink errors and the drop", err)
	}
}
