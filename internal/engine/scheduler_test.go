package engine

import (
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/engine/enginetest"
	"github.com/mongoload/mongoload/internal/testserver"
)

// TestSchedulerMeasuresItself: the open-loop scheduler is one goroutine;
// asked for far more operations than it can schedule it must report itself
// busy and behind, and at an easy rate idle and on time. The oracle is the
// schedule's own count: a scheduler that kept up scheduled rate x duration.
func TestSchedulerMeasuresItself(t *testing.T) {
	testserver.Timing(t)
	tests := []struct {
		name      string
		rate      float64
		hot       bool
		inFlight  int
		execDelay time.Duration
	}{
		{"easy", 500, false, 100, time.Millisecond},
		{"impossible", 50_000_000, true, 1, 50 * time.Millisecond}, // nearly everything dropped: pure scheduling work
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const d = 800 * time.Millisecond
			res, _ := runModel(t, &enginetest.Fake{Delay: tt.execDelay}, Options{Model: Open, Rate: tt.rate, Duration: d, MaxInFlight: tt.inFlight})
			l := res.Totals.Load()
			wall := res.End.Sub(res.Start)
			kept := float64(l.Scheduled) >= 0.9*tt.rate*d.Seconds()
			busy := l.SchedulerBusy.Seconds() / wall.Seconds()
			t.Logf("scheduled %d of %.0f, busy %.0f%%, lag up to %s", l.Scheduled, tt.rate*d.Seconds(), 100*busy, l.SchedulerLag)
			if kept == tt.hot {
				t.Fatalf("the schedule was kept: %v; the test assumes %v", kept, !tt.hot)
			}
			if tt.hot && (busy < 0.7 || l.SchedulerLag < 100*time.Millisecond) {
				t.Errorf("a scheduler that fell behind reports busy %.0f%%, lag %s", 100*busy, l.SchedulerLag)
			}
			// Not the lag: on a loaded machine an idle goroutine can wake late.
			if !tt.hot && busy > 0.3 {
				t.Errorf("an idle scheduler reports busy %.0f%%", 100*busy)
			}
		})
	}
}
