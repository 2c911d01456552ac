package watch

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/workload"
)

// fakeStream delivers the events pushed into it, each committed lag ago;
// it reports idle (an empty wait) when it has none. The set reads a stream
// from one goroutine, so an event is recorded once Next is called again:
// handled counts the events delivered before the latest call.
type fakeStream struct {
	ch        chan time.Duration
	resumes   int64
	closed    atomic.Bool
	delivered atomic.Int64
	handled   atomic.Int64
}

// waitHandled waits until the set has recorded n events from f (an empty
// channel only says they were taken, not yet counted: CI once saw the
// warm-up's event counted after Measure).
func (f *fakeStream) waitHandled(n int64) {
	for f.handled.Load() < n {
		time.Sleep(time.Millisecond)
	}
}

func (f *fakeStream) Next(ctx context.Context) (workload.ChangeEvent, bool, error) {
	f.handled.Store(f.delivered.Load())
	select {
	case lag := <-f.ch:
		f.delivered.Add(1)
		return workload.ChangeEvent{Commit: time.Now().Add(-lag)}, true, nil
	case <-ctx.Done():
		return workload.ChangeEvent{}, false, ctx.Err()
	case <-time.After(5 * time.Millisecond):
		return workload.ChangeEvent{}, false, nil
	}
}
func (f *fakeStream) Resumes() int64            { return f.resumes }
func (f *fakeStream) Close(ctx context.Context) { f.closed.Store(true) }

// The set counts what its streams deliver from Measure on, lag included,
// reads on after Stop until every stream is caught up (events still
// queued at the end count, as afterEnd), sums the resumes, and closes
// every stream.
func TestSetCountsDrainsAndCloses(t *testing.T) {
	var streams []*fakeStream
	open := func(context.Context, *workload.Watcher) (Stream, error) {
		f := &fakeStream{ch: make(chan time.Duration, 100), resumes: 1}
		streams = append(streams, f)
		return f, nil
	}
	spec := &workload.Watcher{Name: "w", Database: "d", Collection: "c", Streams: 2}
	s, err := Open(context.Background(), []*workload.Watcher{spec}, open, nil)
	if err != nil {
		t.Fatal(err)
	}
	streams[0].ch <- time.Hour // before the measured phase: forgotten
	streams[0].waitHandled(1)
	s.Measure()
	for i := range 10 {
		streams[i%2].ch <- 20 * time.Millisecond
	}
	streams[0].waitHandled(6)
	streams[1].waitHandled(5)
	iv := s.Interval()
	for _, f := range streams {
		f.ch <- 30 * time.Millisecond // written during the run, still undelivered at its end
	}
	ws, cut := s.Stop(context.Background(), 2)
	res := ws[0]
	if cut {
		t.Error("a drain that was not interrupted says it was cut short")
	}
	if res.Events != 12 || res.Lag.Count != 12 || res.AfterEnd > 2 || res.Resumes != 2 || res.EventsPerSecond != 6 {
		t.Errorf("result %+v: want 12 events (2 after the end at most), 2 resumes, 6/s", res)
	}
	if res.Lag.P50 < 20 || res.Lag.Max > 1000 {
		t.Errorf("lag %+v: want about 20-30 ms", res.Lag)
	}
	if iv[0].Events != 10 {
		t.Errorf("the interval counted %d events, want 10", iv[0].Events)
	}
	for i, f := range streams {
		if !f.closed.Load() {
			t.Errorf("stream %d not closed", i)
		}
	}
}

// failingStream delivers one event, then fails for good (no resume).
type failingStream struct{ sent atomic.Bool }

func (f *failingStream) Next(ctx context.Context) (workload.ChangeEvent, bool, error) {
	if !f.sent.Swap(true) {
		return workload.ChangeEvent{Commit: time.Now()}, true, nil
	}
	return workload.ChangeEvent{}, false, errors.New("no resume gets past this")
}
func (f *failingStream) Resumes() int64            { return 0 }
func (f *failingStream) Close(ctx context.Context) {}

// A stream that fails for good is said once per watcher (however many of
// its streams fail), its result carries the error, and no verdict on its
// pace is drawn from what it received before.
func TestSetSaysAFailureOnce(t *testing.T) {
	spec := &workload.Watcher{Name: "w", Database: "d", Collection: "c", Streams: 3}
	var said atomic.Int32
	s, err := Open(context.Background(), []*workload.Watcher{spec}, func(context.Context, *workload.Watcher) (Stream, error) {
		return &failingStream{}, nil
	}, func(error) { said.Add(1) })
	if err != nil {
		t.Fatal(err)
	}
	ws, _ := s.Stop(context.Background(), 1)
	if n := said.Load(); n != 1 {
		t.Errorf("the failure was said %d times, want once", n)
	}
	if ws[0].Failed != "no resume gets past this" || ws[0].FallingBehind || ws[0].Verdict != "" {
		t.Errorf("result %+v: want the failure and no verdict", ws[0])
	}
}

// busyStream never catches up: its one wait lasts until the set closes.
type busyStream struct{}

func (busyStream) Next(ctx context.Context) (workload.ChangeEvent, bool, error) {
	<-ctx.Done()
	return workload.ChangeEvent{}, false, ctx.Err()
}
func (busyStream) Resumes() int64            { return 0 }
func (busyStream) Close(ctx context.Context) {}

// A drain cut short by ctx (an interrupt) returns at once, says so, and
// leaves the watchers undrained without a verdict on their pace: they
// were not given the time to catch up.
func TestStopCutShort(t *testing.T) {
	spec := &workload.Watcher{Name: "w", Database: "d", Collection: "c", Streams: 1}
	s, err := Open(context.Background(), []*workload.Watcher{spec}, func(context.Context, *workload.Watcher) (Stream, error) {
		return busyStream{}, nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Measure()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	began := time.Now()
	ws, cut := s.Stop(ctx, 1)
	if !cut || !ws[0].Undrained || ws[0].FallingBehind || ws[0].Verdict != "" {
		t.Errorf("cut %v, result %+v: want cut, undrained, no verdict", cut, ws[0])
	}
	if d := time.Since(began); d > DrainLimit/2 {
		t.Errorf("the interrupted drain took %s", d)
	}
}

// judge: a lag that grows to the end is falling behind; a pause that
// raises it and lets it fall back is not; an undrained consumer is.
func TestJudgeFallingBehind(t *testing.T) {
	tests := []struct {
		name      string
		trend     []float64
		undrained bool
		endMax    float64
		behind    bool
	}{
		{"level", []float64{5, 6, 5, 7, 5, 6, 5, 6}, false, 10, false},
		{"a pause in the middle", []float64{5, 6, 900, 800, 5, 6, 5, 6}, false, 10, false},
		{"growing", []float64{5, 50, 200, 400, 700, 900, 1200, 1500}, false, 10, true},
		{"grows but by little", []float64{5, 6, 8, 10, 12, 14, 15, 16}, false, 10, false},
		{"too few intervals", []float64{5, 900}, false, 10, false},
		{"undrained", []float64{5, 6}, true, 0, true},
		{"a backlog at the end", []float64{5, 6, 5, 6}, false, 2500, true},
	}
	for _, tt := range tests {
		behind, why := judge(tt.trend, tt.undrained, tt.endMax)
		if behind != tt.behind || (behind && !strings.HasPrefix(why, "falling behind")) {
			t.Errorf("%s: behind %v (%q), want %v", tt.name, behind, why, tt.behind)
		}
	}
}
