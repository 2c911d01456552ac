package capacity

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/analysis"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/sink"
)

// edgeSystem is an open loop whose share of operations over 8 ms grows
// with the rate, 1% at edge: each probe of 5 one-second intervals counts
// its operations (the rate each second) and those over the bound (the
// share's expectation, rounded), so the search sees the proportion it
// must judge and nothing random.
type edgeSystem struct{ edge float64 }

func (s edgeSystem) share(rate float64) float64 { return 0.01 * math.Pow(rate/s.edge, 4) }

func (s edgeSystem) run(ctx context.Context, rate float64, st Stage, counts sink.Sink) (*results.Result, error) {
	res, err := system{limit: math.Inf(1)}.run(ctx, rate, st)
	c := counts.(*tailCounter)
	for i := 0; i < 5; i++ {
		n := int64(rate)
		c.counts[0] = append(c.counts[0], TailCount{Ops: n, Over: int64(math.Round(s.share(rate) * float64(n)))})
	}
	res.DurationSeconds = 5
	return res, err
}

// TestSearchJudgesProportions: each probe is judged by its interval for
// the share over 8 ms: a pass shown below 1%, a fail shown above it, a
// probe near the edge extended at the same rate (its counts pooled) and,
// still straddling 1% when its extensions ran out, judged by its point
// estimate (marked inconclusive), the
// interval's ends measured in more windows; the answer is an interval
// around the edge, narrower than the precision's bracket, with the probes
// and seconds it took.
func TestSearchJudgesProportions(t *testing.T) {
	objs, err := analysis.ParseObjectives("p99<=8ms")
	if err != nil {
		t.Fatal(err)
	}
	sys := edgeSystem{edge: 5000}
	f := &results.FindMax{SLO: []string{"p99<=8ms"}, AchievedShare: DefaultAchievedShare}
	// Started at 700, bisects land where windows straddle 1% (from 1,000
	// the search shows 4,000, EdgeMargin below 5,188, and probes no nearer).
	s := Search{Policy: DefaultPolicy(700), Objectives: objs, AchievedShare: DefaultAchievedShare, MaxExtensions: 2, // the mechanism, though findmax extends none

		Run: func(context.Context, float64, Stage) (*results.Result, error) {
			t.Fatal("the uncounted run was used")
			return nil, nil
		}, RunCounted: sys.run}
	if err := s.Do(context.Background(), f); err != nil {
		t.Fatal(err)
	}
	iv := f.MaxRateInterval
	if iv == nil || !f.Found {
		t.Fatalf("no interval: %+v", f)
	}
	if width := EdgeMargin * (1 + s.Policy.Precision); !(iv.Low <= sys.edge && sys.edge <= iv.High && iv.High <= width*iv.Low) || iv.Low != f.MaxRate {
		t.Errorf("interval [%g, %g] around maxRate %g: want the edge %g inside, at most %g wide", iv.Low, iv.High, f.MaxRate, sys.edge, width)
	}
	t.Logf("answer %s; %s", results.IntervalText(iv), f.Summary)
	extended, seconds := 0, 0.0
	for _, p := range f.Probes {
		seconds += p.Result.DurationSeconds
		// Windows are repeated only to show an end (decided.go): a
		// candidate low end passing (the answer, or one shown before it),
		// the high end failing.
		if p.Stage == string(Confirm) && p.Rate > iv.Low || p.Stage == string(Recheck) && p.Rate != iv.High {
			t.Errorf("probe at %g repeated (%s) though not an end of [%g, %g]", p.Rate, p.Stage, iv.Low, iv.High)
		}
		if p.Stage == string(Extend) {
			extended++
		}
		if len(p.Tails) != 1 {
			t.Fatalf("probe at %g: tails %+v", p.Rate, p.Tails)
		}
		tl := p.Tails[0]
		t.Logf("%s %g: %s", p.Stage, p.Rate, results.TailsText(p.Tails))
		switch {
		case p.Terms == nil && tl.Verdict != "inconclusive":
			t.Errorf("probe at %g extended although %s", p.Rate, tl.Verdict)
		case p.Terms != nil && p.Pass != (tl.Verdict == "pass" || tl.Verdict == "inconclusive" && tl.Share <= tl.Allowed):
			// an inconclusive window is judged by its point estimate
			t.Errorf("probe at %g: pass %v but its tail %s at %g of %g", p.Rate, p.Pass, tl.Verdict, tl.Share, tl.Allowed)
		case p.Terms != nil && p.Inconclusive != (tl.Verdict == "inconclusive"):
			t.Errorf("probe at %g: inconclusive %v but its tail %s", p.Rate, p.Inconclusive, tl.Verdict)
		case tl.Verdict == "pass" && tl.High >= 0.01, tl.Verdict == "fail" && tl.Low <= 0.01:
			t.Errorf("probe at %g: %s with interval [%g, %g]", p.Rate, tl.Verdict, tl.Low, tl.High)
		}
		if tl.Verdict == "pass" && sys.share(p.Rate) >= 0.01 || tl.Verdict == "fail" && sys.share(p.Rate) <= 0.01 {
			t.Errorf("probe at %g (share %.4f) judged %s", p.Rate, sys.share(p.Rate), tl.Verdict)
		}
	}
	if extended == 0 {
		t.Error("no probe near the edge was extended")
	}
	if iv.Probes != len(f.Probes) || iv.Seconds != seconds || iv.Confidence != Confidence {
		t.Errorf("interval says %d probes, %g s at %g; the search ran %d, %g s", iv.Probes, iv.Seconds, iv.Confidence, len(f.Probes), seconds)
	}
}

// TestIntervalSaysByPercentile: an answer whose end was judged by its
// percentile (too few operations for an interval) does not claim the
// interval's confidence for it.
func TestIntervalSaysByPercentile(t *testing.T) {
	probe := func(rate float64, verdict string) results.Probe {
		return results.Probe{Rate: rate, Terms: []results.Term{{Text: "p99<=8ms"}}, Result: &results.Result{DurationSeconds: 5},
			Tails: []results.ProbeTail{{Objective: "p99<=8ms", Verdict: verdict}}}
	}
	for _, verdict := range []string{"pass", "too few operations"} {
		f := &results.FindMax{MaxRate: 10, FailedAbove: &results.FailedProbe{Rate: 11}, Probes: []results.Probe{probe(10, verdict), probe(11, "fail")}}
		iv := rateInterval(f, Decision{}, nil)
		if iv.Low != 10 || iv.High != 11 || iv.Probes != 2 || iv.Seconds != 10 || iv.ByPercentile != (verdict != "pass") {
			t.Errorf("%s at the answer: %+v", verdict, iv)
		}
		if said := strings.Contains(results.IntervalText(iv), "judged by its percentile"); said != iv.ByPercentile {
			t.Errorf("%s: the sentence %q", verdict, results.IntervalText(iv))
		}
	}
}

// TestIntervalCountsRuns: the runs the interval says each end took are
// the runs measured there (a pass and a window extended twice: four), not
// the rule's thresholds; windows that disagreed inside it are its edge;
// the margin below the high end is in the file and its sentence.
func TestIntervalCountsRuns(t *testing.T) {
	f := &results.FindMax{MaxRate: 100, FailedAbove: &results.FailedProbe{Rate: 120}}
	history := []Outcome{pass(100), {Rate: 100, Pass: true, Segments: 3}, pass(110), slow(110), slow(120), slow(120), slow(120)}
	iv := rateInterval(f, Decision{}, history)
	if iv.PassWindows != 4 || iv.FailWindows != 3 || len(iv.Edge) != 1 || iv.Edge[0] != 110 {
		t.Errorf("runs at the ends %d and %d, edge %v; measured 4 passing at 100, 3 failing at 120, disagreement at 110", iv.PassWindows, iv.FailWindows, iv.Edge)
	}
	if s := results.IntervalText(iv); !strings.Contains(s, "passed in 4 runs") || !strings.Contains(s, "failed in 3 runs") ||
		iv.Margin != EdgeMargin || !strings.Contains(s, "at least 1.25 times below the lowest rate that failed") || !strings.Contains(s, "with none failing there") {
		t.Errorf("the sentence %q", s)
	}
	// A failure within the margin (120 < 100 x 1.25), found once the
	// answer was shown: said; one past it is not.
	if s := results.IntervalText(iv); !strings.Contains(s, "but the high end, found after the answer was shown, lies only 1.20 times above it") {
		t.Errorf("a high end inside the margin: %q", s)
	}
	outside := *iv
	outside.High = 130
	if s := results.IntervalText(&outside); strings.Contains(s, "lies only") {
		t.Errorf("a high end 1.3 above the answer said to lie inside the margin: %q", s)
	}
	// A stall at the low end, outvoted: counted, and said.
	history = []Outcome{pass(100), {Rate: 100, Inconclusive: true}, pass(100), pass(100), pass(100), slow(120), slow(120)}
	iv = rateInterval(f, Decision{}, history)
	if s := results.IntervalText(iv); iv.PassWindows != 4 || iv.StallWindows != 1 || !strings.Contains(s, "passed in 4 runs and failed in 1 by its point estimate alone (a stall, outvoted)") {
		t.Errorf("runs at the low end %d passing, %d stalled: %q", iv.PassWindows, iv.StallWindows, s)
	}
	if s := results.IntervalText(iv); iv.HighStallsOnly || strings.Contains(s, "point estimate alone (its interval") {
		t.Errorf("a high end failed by its intervals said to rest on stalls: %q", s)
	}
	// capacity4: the first two windows, at 3,242 and 2,594, stalled; 2,075
	// was shown: a high end of stalls alone, said.
	f = &results.FindMax{MaxRate: 2075, FailedAbove: &results.FailedProbe{Rate: 2594}}
	history = []Outcome{{Rate: 3242, Inconclusive: true}, {Rate: 2594, Inconclusive: true}, pass(2075), pass(2075), pass(2075)}
	iv = rateInterval(f, Decision{}, history)
	if s := results.IntervalText(iv); iv.FailWindows != 2 || !iv.HighStallsOnly || !strings.Contains(s, "each by its point estimate alone (its interval straddled the objective)") {
		t.Errorf("a high end of stalls alone: %d failing runs, stalls only %v: %q", iv.FailWindows, iv.HighStallsOnly, s)
	}
}
