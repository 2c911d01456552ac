package capture

import (
	"math"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/capture/source"
	"github.com/mongoload/mongoload/internal/config"
)

// TestCurveKeepsBursts: an application at 100/s with a 400/s burst every
// fourth second is written as one stage a second following it (peak to
// mean 400/175), repeated, with the mean as the rate; the file compiles
// and says so; a window's partial edge seconds are rates, not counts.
func TestCurveKeepsBursts(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var ops []source.Op
	for s := range 12 {
		n := 100
		if s%4 == 3 {
			n = 400
		}
		for i := range n {
			ops = append(ops, find(bson.D{{Key: "status", Value: statuses[i%4]}}, t0.Add(time.Duration(s)*time.Second+time.Duration(i)*time.Second/time.Duration(n))))
		}
	}
	res := captured(ops, Options{})
	w := res.Workload("bursts")
	c := w.Curve
	if c == nil || len(c.Rates) != 12 || c.Step != time.Second {
		t.Fatalf("curve %+v; want 12 points a second apart", c)
	}
	mean := 0.0
	for _, r := range c.Rates {
		mean += r / 12
	}
	if math.Abs(mean-w.Config.Run.Rate) > 0.01*w.Config.Run.Rate {
		t.Errorf("the curve's mean %.2f is not the rate written, %.2f", mean, w.Config.Run.Rate)
	}
	if want := 400.0 / 175; math.Abs(c.PeakToMean-want) > 0.05*want {
		t.Errorf("peak-to-mean %.2f, want %.2f", c.PeakToMean, want)
	}
	if r := c.Rates[3] / c.Rates[0]; math.Abs(r-4) > 0.2 {
		t.Errorf("the burst second is %.2fx the quiet one, want 4x", r)
	}
	st := w.Config.Run
	if !st.RepeatStages || len(st.Stages) != 12 || st.Stages[3].Duration != config.Duration(time.Second) {
		t.Errorf("run: repeat %v, %d stages", st.RepeatStages, len(st.Stages))
	}
	text := write(t, w)
	for _, want := range []string{"repeatStages: true", "peak-to-mean 2.2", "stages: 1s:"} {
		if !strings.Contains(text, want) {
			t.Errorf("the file lacks %q", want)
		}
	}
}

// TestCurveNeedsEveryOperation: a source that kept only slow operations,
// or counts executions in aggregate, writes no curve.
func TestCurveNeedsEveryOperation(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var ops []source.Op
	for i := range 500 {
		ops = append(ops, find(bson.D{{Key: "status", Value: "new"}}, t0.Add(time.Duration(i)*10*time.Millisecond)))
	}
	res := captured(ops, Options{})
	res.Sources[0].Complete = false
	if w := res.Workload("slow"); w.Curve != nil || len(w.Config.Run.Stages) > 0 {
		t.Errorf("a curve from a source that did not record every operation: %+v", w.Curve)
	}
	res.Sources[0].Complete, res.Sources[0].Arrivals = true, nil
	if w := res.Workload("aggregate"); w.Curve != nil {
		t.Errorf("a curve from a source with no arrivals: %+v", w.Curve)
	}
}
