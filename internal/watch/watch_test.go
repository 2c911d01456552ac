package watch

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/workload"
)

// fakeStream delivers the events pushed into it, each committed lag ago;
// it reports idle (an empty wait) when it has none.
type fakeStream struct {
	ch      chan time.Duration
	resumes int64
	closed  atomic.Bool
}

func (f *fakeStream) Next(ctx context.Context) (workload.ChangeEvent, bool, error) {
	select {
	case lag := <-f.ch:
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
	s, err := Open(context.Background(), []*workload.Watcher{spec}, open)
	if err != nil {
		t.Fatal(err)
	}
	streams[0].ch <- time.Hour // before the measured phase: forgotten
	for len(streams[0].ch) > 0 {
		time.Sleep(time.Millisecond)
	}
	s.Measure()
	for i := range 10 {
		streams[i%2].ch <- 20 * time.Millisecond
	}
	for _, f := range streams {
		for len(f.ch) > 0 {
			time.Sleep(time.Millisecond)
		}
	}
	iv := s.Interval()
	for _, f := range streams {
		f.ch <- 30 * time.Millisecond // written during the run, still undelivered at its end
	}
	res := s.Stop(context.Background(), 2)[0]
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
