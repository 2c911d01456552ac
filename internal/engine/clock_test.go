package engine

import (
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/engine/enginetest"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/testserver"
)

// TestClockNamesWhatIsMeasured: Clock names the clock each load model's
// latencies actually use. The oracle is the executor's fixed 10ms: a
// latency from the send is about 10ms; with 8 workers sharing 2 in-flight
// places each waits for 3 others' operations, about 40ms from when it was
// ready.
func TestClockNamesWhatIsMeasured(t *testing.T) {
	testserver.Timing(t)
	const d = 10 * time.Millisecond
	tests := []struct {
		name     string
		o        Options
		clock    string
		min, max time.Duration // the average latency
	}{
		{"own runners", Options{Model: Closed, Concurrency: 2, MaxInFlight: 100}, metrics.FromSend, d, 2 * d},
		{"queued workers", Options{Model: Closed, Concurrency: 8, MaxInFlight: 2}, metrics.FromReady, 3 * d, 5 * d},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.o.Duration = 600 * time.Millisecond
			if got := Clock(tt.o); got != tt.clock {
				t.Errorf("Clock = %q, want %q", got, tt.clock)
			}
			res, _ := runModel(t, &enginetest.Fake{Delay: d}, tt.o)
			avg := time.Duration(res.Totals.Op(0).Latency.Mean()) * time.Microsecond
			if avg < tt.min || avg > tt.max {
				t.Errorf("average latency %s, want %s to %s for the %q clock", avg, tt.min, tt.max, tt.clock)
			}
		})
	}
}

// TestClock: every load model's clock, stages included.
func TestClock(t *testing.T) {
	tests := []struct {
		o    Options
		want string
	}{
		{Options{Model: Closed, Concurrency: 100, MaxInFlight: 100}, metrics.FromSend},
		{Options{Model: Closed, Concurrency: 101, MaxInFlight: 100}, metrics.FromReady},
		{Options{Model: Closed, Concurrency: 4, MaxInFlight: 100, Stages: []Stage{{Duration: time.Second, Target: 200}}}, metrics.FromReady},
		{Options{Model: Closed, Concurrency: 500}, metrics.FromSend}, // no limit: a runner per worker
		{Options{Model: Sessions, Sessions: 10, MaxInFlight: 100}, metrics.FromDue},
		{Options{Model: Open, Rate: 100}, metrics.FromScheduled},
	}
	for _, tt := range tests {
		if got := Clock(tt.o); got != tt.want {
			t.Errorf("Clock(%+v) = %q, want %q", tt.o, got, tt.want)
		}
	}
}
