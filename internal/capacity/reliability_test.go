package capacity

import (
	"context"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/analysis"
	"github.com/mongoload/mongoload/internal/results"
)

// noisy is system with other work on the host: share of its cores during
// every probe.
func noisy(s system, share float64) RunFunc {
	return func(ctx context.Context, rate float64, st Stage) (*results.Result, error) {
		res, err := s.run(ctx, rate, st)
		res.Interference = &results.Interference{Cores: 2, Other: 2 * share, OtherShare: share}
		return res, err
	}
}

func search(t *testing.T, run RunFunc) *results.FindMax {
	t.Helper()
	objs, err := analysis.ParseObjectives("p99<=10ms")
	if err != nil {
		t.Fatal(err)
	}
	f := &results.FindMax{SLO: []string{"p99<=10ms"}, AchievedShare: DefaultAchievedShare}
	s := Search{Policy: DefaultPolicy(100), Objectives: objs, AchievedShare: DefaultAchievedShare, Run: run}
	if err := s.Do(context.Background(), f); err != nil {
		t.Fatal(err)
	}
	if err := Conclude(f, analysis.DefaultSweepOptions()); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestAssessNoise: the same search is reliable on a quiet host and not
// with other work taking a quarter of it, which the sentence names; the
// server is then never named the limit.
func TestAssessNoise(t *testing.T) {
	quiet := search(t, noisy(system{limit: 1000}, 0.02))
	if quiet.Reliable == nil || !*quiet.Reliable || !strings.HasPrefix(quiet.ReliableWhy, "Reliable:") {
		t.Errorf("quiet: reliable %v: %s", quiet.Reliable, quiet.ReliableWhy)
	}
	busy := search(t, noisy(system{limit: 1000}, 0.25))
	if busy.Reliable == nil || *busy.Reliable || !strings.Contains(busy.ReliableWhy, "other work on this host used 25% of its CPU") {
		t.Errorf("busy: reliable %v: %s", busy.Reliable, busy.ReliableWhy)
	}
	if busy.Limit.Kind != "host-noise" {
		t.Errorf("busy: limit %q (%s), want host-noise", busy.Limit.Kind, busy.Limit.Text)
	}
}

// TestAssessDisagreement: a failure below the answer (noise in the
// search's own probes) makes the answer unreliable, and says where.
func TestAssessDisagreement(t *testing.T) {
	n := 0
	sys := system{limit: 1000}
	f := search(t, func(ctx context.Context, rate float64, st Stage) (*results.Result, error) {
		n++
		if n == 2 { // the second probe, at 200 ops/s, is slow once: the recheck passes
			return system{limit: 100}.run(ctx, rate, st)
		}
		return sys.run(ctx, rate, st)
	})
	if f.Reliable == nil || *f.Reliable || len(f.Reliability.Disagreements) == 0 || f.Reliability.Disagreements[0].Rate != 200 {
		t.Fatalf("reliable %v, %+v: %s", f.Reliable, f.Reliability, f.ReliableWhy)
	}
	if !strings.Contains(f.ReliableWhy, "at 200 ops/s, at or below the answer, 1 of 3 probes failed") {
		t.Errorf("why: %s", f.ReliableWhy)
	}
	// The spread of the repeated probes: p99 ~3.6 ms twice, ~91 ms once at 200 ops/s.
	if r := f.Reliability.Repeats; len(r) == 0 || r[0].Rate != 200 || r[0].Passed != 2 || r[0].Failed != 1 || r[0].P99Spread < 20 {
		t.Errorf("repeats %+v", r)
	}
}

// TestSearchRetriesAPause: a probe during which the server paused is kept,
// not judged, and the rate probed again; the answer is the one without
// the pause and the pause is never the limit.
func TestSearchRetriesAPause(t *testing.T) {
	n := 0
	sys := system{limit: 1000}
	f := search(t, func(ctx context.Context, rate float64, st Stage) (*results.Result, error) {
		n++
		res, _ := sys.run(ctx, rate, st)
		if n == 3 {
			res.Totals.Latency.P99 = 4000
			return res, &Paused{What: "no operation was answered for 4.0 s"}
		}
		return res, nil
	})
	if !f.Found || f.MaxRate < 1000/1.05 || f.MaxRate > 1000 {
		t.Fatalf("max %g", f.MaxRate)
	}
	p := f.Probes[2]
	if p.Interrupted == "" || p.Terms != nil || f.Probes[3].Rate != p.Rate {
		t.Errorf("the paused probe: %+v; next at %g", p, f.Probes[3].Rate)
	}
	if f.Reliability.Stalled != 1 || !*f.Reliable {
		t.Errorf("reliability %+v: %s", f.Reliability, f.ReliableWhy)
	}
}

// TestStall finds a server that stopped answering: an open availability
// gap, and a stretch of intervals with operations in flight and no
// answer; an overloaded server that answers slowly is no stall.
func TestStall(t *testing.T) {
	iv := func(t, n, inFlight float64) results.IntervalSummary {
		return results.IntervalSummary{T: t, Dt: 1, Load: &results.IntervalLoad{InFlight: int64(inFlight)}, Ops: []results.OpSummary{{Name: "a", Count: int64(n)}}}
	}
	paused := &results.Result{Intervals: []results.IntervalSummary{iv(1, 100, 5), iv(2, 0, 1000), iv(3, 0, 1000), iv(4, 0, 1000), iv(5, 400, 5)}}
	if what, open, ok := Stall(paused); !ok || open || !strings.Contains(what, "for 3.0 s from 1.0 s") {
		t.Errorf("paused: %q %v %v", what, open, ok)
	}
	slow := &results.Result{Intervals: []results.IntervalSummary{iv(1, 100, 900), iv(2, 3, 1000), iv(3, 2, 1000)}}
	if what, _, ok := Stall(slow); ok {
		t.Errorf("slow server taken for a stall: %q", what)
	}
	// A server starved by an overload: seconds between answers that take
	// seconds each (p50 1.3 s) is no pause.
	starved := &results.Result{Intervals: []results.IntervalSummary{iv(1, 500, 1000), iv(2, 0, 1000), iv(3, 0, 1000), iv(4, 600, 1000)}}
	starved.Totals.Latency.P50 = 1300
	if what, _, ok := Stall(starved); ok {
		t.Errorf("an overload taken for a stall: %q", what)
	}
	gone := &results.Result{Faults: &results.Faults{Gaps: []results.FaultGap{{Start: 1.5, End: 2, Seconds: 0.5, Open: true}}}}
	if _, open, ok := Stall(gone); !ok || !open {
		t.Errorf("an open gap: %v %v", open, ok)
	}
}

// TestAssessDecidedStall: in a decided search a lone window failing by
// its point estimate below the answer, outvoted by passes there, is a
// stall the rule set aside, not a disagreement; one failing by its
// interval there is.
func TestAssessDecidedStall(t *testing.T) {
	probe := func(rate float64, pass, unsure bool) results.Probe {
		return results.Probe{Rate: rate, Pass: pass, Inconclusive: unsure, Terms: []results.Term{{Text: "p99<=8ms", Pass: pass}},
			Result: &results.Result{}}
	}
	for _, tt := range []struct {
		name   string
		unsure bool
		want   int
	}{{"stall", true, 0}, {"failed by its interval", false, 1}} {
		f := &results.FindMax{Found: true, MaxRate: 3000, MaxRateInterval: &results.RateInterval{Low: 3000, High: 4000},
			Probes: []results.Probe{probe(2000, false, tt.unsure), probe(2000, true, false), probe(2000, true, false),
				probe(3000, true, false), probe(3000, true, false), probe(3000, true, false), probe(4000, false, false)}}
		if got, _ := disagreements(f, 4000); len(got) != tt.want {
			t.Errorf("%s: disagreements %+v, want %d", tt.name, got, tt.want)
		}
	}
}
