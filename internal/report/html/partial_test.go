package html

import (
	"math"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/results/resultstest"
)

// TestChartsEndWithoutAFalseDip: a run's last interval, cut to a moment by
// its end, and the final telemetry sample taken then are not drawn: their
// rates (here a spike a hundred times the others) would end every chart
// over time in a false dip or spike. The oracle is the series built here:
// each chart has a point per whole interval or sample, none of the cut one's.
func TestChartsEndWithoutAFalseDip(t *testing.T) {
	res := resultstest.ClosedRun().Result()
	whole := len(res.Intervals)
	last := res.Intervals[whole-1]
	cut := results.IntervalSummary{T: last.T + 0.02, Dt: 0.02, Ops: append([]results.OpSummary(nil), last.Ops...)}
	for i := range cut.Ops {
		cut.Ops[i].Rate *= 100
	}
	res.Intervals = append(res.Intervals, cut)
	res.Server = resultstest.ServerSample(0.3, 0.02, nil) // one sample a second, its cache
	one := res.Server.Samples[0]
	res.Server.Samples = nil
	for _, iv := range res.Intervals[:whole] {
		s := one
		s.T, s.Dt = iv.T, 1
		res.Server.Samples = append(res.Server.Samples, s)
	}
	samples := len(res.Server.Samples)
	final := one
	final.T, final.Dt = last.T+0.02, 0.02
	res.Server.Samples = append(res.Server.Samples, final)

	v := resultView(res)
	seen := 0
	for _, c := range v.Charts {
		want := whole
		if strings.HasPrefix(c.ID, "srv") {
			want = samples
		}
		if c.Kind != "time" {
			continue
		}
		seen++
		if len(c.X) != want {
			t.Errorf("chart %s has %d points; want %d, the cut interval or sample left out", c.ID, len(c.X), want)
		}
		for _, x := range c.X {
			if math.Abs(x-cut.T) < 1e-9 || math.Abs(x-final.T) < 1e-9 {
				t.Errorf("chart %s draws the cut interval or sample at %.3fs", c.ID, x)
			}
		}
	}
	if seen < 3 {
		t.Fatalf("%d charts over time; want throughput, latency and the server's", seen)
	}
}
