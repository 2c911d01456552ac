package report

import (
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/metrics"
)

// TestLiveSkipsTheCutInterval: the live line leaves out the run's last
// interval when its end cut it to under half the others (results.Partial,
// the charts' rule), and only then.
func TestLiveSkipsTheCutInterval(t *testing.T) {
	for _, tt := range []struct {
		name  string
		dts   []time.Duration
		lines int
	}{
		{"cut to 0.3 of 1s", []time.Duration{time.Second, time.Second, 300 * time.Millisecond}, 2},
		{"cut to 0.6 of 1s", []time.Duration{time.Second, time.Second, 600 * time.Millisecond}, 3},
		{"0.3s intervals, a last one of 0.1s", []time.Duration{300 * time.Millisecond, 300 * time.Millisecond, 100 * time.Millisecond}, 2},
		{"a run shorter than one interval", []time.Duration{300 * time.Millisecond}, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			s := NewLiveSink(&b)
			start := time.Now()
			var elapsed time.Duration
			for _, dt := range tt.dts {
				elapsed += dt
				h := metrics.NewHistogram()
				_ = h.RecordValue(1000)
				s.Interval(&metrics.Interval{Start: start, End: start.Add(dt), Ops: []metrics.OpInterval{{Name: "get", Latency: h}}}, elapsed)
				start = start.Add(dt)
			}
			if got := strings.Count(b.String(), "ops/s"); got != tt.lines {
				t.Errorf("%d live lines; want %d:\n%s", got, tt.lines, b.String())
			}
		})
	}
}
