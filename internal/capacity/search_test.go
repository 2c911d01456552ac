package capacity

import (
	"context"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/analysis"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/results/resultstest"
)

// system is a synthetic server for Search: up to limit ops/s it answers
// in 2 ms, above it in 50 ms; busy is the scheduler's busiest share at a
// rate (0 for an idle one).
type system struct {
	limit float64
	busy  func(rate float64) float64
}

func (s system) run(_ context.Context, rate float64, _ Stage) (*results.Result, error) {
	lat := 2.0
	if rate > s.limit {
		lat = 50
	}
	res := resultstest.Result(results.LoadModel{Type: results.Open, Rate: rate}, resultstest.Step{Level: rate, Throughput: rate, LatencyMs: lat, ClientCPU: 0.1}, resultstest.T0, "")
	res.Schedule = &results.Schedule{TargetRate: rate}
	if s.busy != nil {
		res.Client.SchedulerBusy = s.busy(rate)
	}
	return res, nil
}

// TestSearchConcludes runs the whole search on synthetic results: the
// maximum within the precision below the limit, the term that failed
// above it, and the limit named at the failing rate: the client's
// scheduler when it was saturated there, never the server then, and not
// for a saturation only at higher rates.
func TestSearchConcludes(t *testing.T) {
	objs, err := analysis.ParseObjectives("p99<=10ms")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		busy func(float64) float64
		kind string
	}{
		{"server", nil, "server"},
		{"scheduler at the failing rate", func(r float64) float64 { return map[bool]float64{true: 0.97}[r > 1000] }, "client-scheduler"},
		{"scheduler only far above", func(r float64) float64 { return map[bool]float64{true: 0.97}[r > 1500] }, "server"},
	} {
		sys := system{limit: 1000, busy: tt.busy}
		f := &results.FindMax{SLO: []string{"p99<=10ms"}, AchievedShare: DefaultAchievedShare}
		s := Search{Policy: DefaultPolicy(100), Objectives: objs, AchievedShare: DefaultAchievedShare, Run: sys.run}
		if err := s.Do(context.Background(), f); err != nil {
			t.Fatal(err)
		}
		if err := Conclude(f, analysis.DefaultSweepOptions()); err != nil {
			t.Fatal(err)
		}
		if !f.Found || f.MaxRate > 1000 || f.MaxRate < 1000/1.05 || f.FailedAbove == nil || f.FailedAbove.Rate > f.MaxRate*1.05 {
			t.Fatalf("%s: max %g, failed above %+v", tt.name, f.MaxRate, f.FailedAbove)
		}
		if f.Limit.Kind != tt.kind {
			t.Errorf("%s: limit %q (%s), want %q", tt.name, f.Limit.Kind, f.Limit.Text, tt.kind)
		}
		want := "The highest rate meeting p99<=10ms is " + results.Target(f.MaxRate) + " ops/s"
		if !strings.HasPrefix(f.Summary, want) || !strings.Contains(f.Summary, "p99<=10ms (measured ") {
			t.Errorf("%s: summary %q", tt.name, f.Summary)
		}
	}
}
