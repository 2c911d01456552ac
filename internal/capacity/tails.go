package capacity

import (
	"fmt"
	"strings"
	"sync"

	"github.com/mongoload/mongoload/internal/analysis"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/sink"
)

// A tail objective is a latency objective over every operation of the mix
// that bounds a share: pNN<=B (at most 1−NN% over B) or under(B)>=S% (at
// most 1−S% over B). Those are judged as proportions; the others (avg,
// max, an objective of one operation, throughput, errors) by their value.
type tailObjective struct {
	text    string
	boundUs int64
	allowed float64 // the share allowed over the bound
}

func tailObjectives(objs []analysis.Objective) []tailObjective {
	var out []tailObjective
	for _, o := range objs {
		switch {
		case o.Watch || o.Scope != "":
		case strings.HasPrefix(o.Metric, "p") && o.Pct > 0 && (o.Op == "<=" || o.Op == "<"):
			out = append(out, tailObjective{o.Text, int64(o.Value * 1000), 1 - o.Pct/100})
		case o.Metric == "under" && (o.Op == ">=" || o.Op == ">"):
			out = append(out, tailObjective{o.Text, int64(o.Under * 1000), 1 - o.Value/100})
		}
	}
	return out
}

// tailCounter is a sink counting, each interval of a probe, the mix's
// operations and those over each tail objective's bound.
type tailCounter struct {
	objs   []tailObjective
	mu     sync.Mutex
	counts [][]TailCount // by objective, one per interval
}

func newTailCounter(objs []tailObjective) *tailCounter {
	return &tailCounter{objs: objs, counts: make([][]TailCount, len(objs))}
}

// Interval counts one interval; a dropped operation was never answered,
// so it is over every bound.
func (c *tailCounter) Interval(s *sink.Snapshot) {
	iv := s.Interval
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, o := range c.objs {
		tc := TailCount{Ops: iv.Load.Dropped, Over: iv.Load.Dropped}
		for _, op := range iv.Ops {
			if op.Parent != "" || op.Latency == nil {
				continue // a transaction's step is not in the mix
			}
			tc.Ops += op.Latency.TotalCount()
			for _, b := range op.Latency.Distribution() {
				if b.From > o.boundUs {
					tc.Over += b.Count
				}
			}
		}
		c.counts[i] = append(c.counts[i], tc)
	}
}

func (c *tailCounter) Close(*results.Result) error { return nil }
func (c *tailCounter) Name() string                { return "findmax's tail counts" }

// Counts are the counts so far, by objective.
func (c *tailCounter) Counts() [][]TailCount {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([][]TailCount, len(c.counts))
	for i := range c.counts {
		out[i] = append([]TailCount(nil), c.counts[i]...)
	}
	return out
}

// judgeTails judges pooled counts of a probe's segments (seconds measured
// in all): each objective passes when its interval lies below the share
// allowed, fails when above, and is inconclusive when it straddles it.
func judgeTails(objs []tailObjective, pooled [][]TailCount, seconds float64, segments int) []results.ProbeTail {
	out := make([]results.ProbeTail, len(objs))
	for i, o := range objs {
		share, lo, hi := ProportionInterval(pooled[i], Confidence)
		t := results.ProbeTail{Objective: o.text, BoundMs: float64(o.boundUs) / 1000, Allowed: round6(o.allowed), Share: round6(share),
			Low: round6(lo), High: round6(hi), Confidence: Confidence, Seconds: float64(int64(seconds*1000+0.5)) / 1000, Segments: segments, Verdict: "inconclusive"}
		for _, c := range pooled[i] {
			t.Over, t.Operations = t.Over+c.Over, t.Operations+c.Ops
		}
		switch {
		case hi < o.allowed:
			t.Verdict = "pass"
		case lo > o.allowed:
			t.Verdict = "fail"
		}
		out[i] = t
	}
	return out
}

// tailVerdict is the probe's verdict from its tails: fail when one
// failed, inconclusive when one is and none failed, else pass.
func tailVerdict(tails []results.ProbeTail) string {
	v := "pass"
	for _, t := range tails {
		switch t.Verdict {
		case "fail":
			return "fail"
		case "inconclusive":
			v = "inconclusive"
		}
	}
	return v
}

// applyTails makes each tail objective's term say what its proportion
// showed, not what one percentile of the segment did: pass when its
// interval lies below the share allowed, fail when above; an
// inconclusive one (straddling it) by its point estimate, the share over
// the bound against the share allowed, which is the window's own
// percentile against the bound, as an independent client judges a window.
// The noise an inconclusive window carries is the rate's to settle, by
// its other windows (edge.go's NeedPass and NeedFail). The other terms
// stand as judged.
func applyTails(terms []results.Term, tails []results.ProbeTail) bool {
	pass := true
	for i := range terms {
		for _, t := range tails {
			if terms[i].Text == t.Objective {
				terms[i].Pass = t.Verdict == "pass" || t.Verdict == "inconclusive" && t.Share <= t.Allowed
				terms[i].Shown += fmt.Sprintf("; %.2f%% over %gms, %.0f%% interval %.2f%% to %.2f%% (%s)", 100*t.Share, t.BoundMs, 100*t.Confidence, 100*t.Low, 100*t.High, t.Verdict)
			}
		}
		pass = pass && terms[i].Pass
	}
	return pass
}

func round6(x float64) float64 { return float64(int64(x*1e6+0.5)) / 1e6 }

// extension is a probe being extended: its segments' counts pooled.
type extension struct {
	rate     float64
	pooled   [][]TailCount
	seconds  float64
	segments int
}

// add pools one more segment's counts (a nil e starts the probe).
func (e *extension) add(rate float64, counts [][]TailCount, seconds float64) *extension {
	if e == nil {
		e = &extension{rate: rate, pooled: make([][]TailCount, len(counts))}
	}
	for i := range counts {
		e.pooled[i] = append(e.pooled[i], counts[i]...)
	}
	e.seconds += seconds
	e.segments++
	return e
}

func isTail(text string, objs []tailObjective) bool {
	for _, o := range objs {
		if o.text == text {
			return true
		}
	}
	return false
}

// rateInterval is the answer's interval: the highest rate shown to pass
// (maxRate) and the lowest failing rate above it, and what the search
// measured to find them.
func rateInterval(f *results.FindMax, d Decision, history []Outcome) *results.RateInterval {
	r := &results.RateInterval{Low: f.MaxRate, Confidence: Confidence, Probes: len(f.Probes), Unshown: d.Unshown, FailSpan: FailSpan, Margin: EdgeMargin}
	v := viewEdge(history)
	for _, e := range v.edge {
		if e > r.Low && (f.FailedAbove == nil || e < f.FailedAbove.Rate) {
			r.Edge = append(r.Edge, e)
		}
	}
	if f.FailedAbove != nil {
		r.High = f.FailedAbove.Rate
	}
	// The runs each end took, as counted (at least NeedPass and NeedFail
	// where the end is shown), not the rule's thresholds.
	up := v.span(r.High)
	r.PassWindows, r.StallWindows, r.FailWindows = v.rates[r.Low].passes, v.rates[r.Low].fails, up.fails
	r.HighStallsOnly = r.High > 0 && up.fails > 0 && up.sure == 0 && up.clear == 0
	if d.Candidate > 0 {
		r.Candidate, r.CandidateRuns, r.CandidateStalls = d.Candidate, v.rates[d.Candidate].passes, v.rates[d.Candidate].fails
	}
	for _, p := range f.Probes {
		if p.Result != nil {
			r.Seconds += p.Result.DurationSeconds
		}
		if p.Terms != nil && (p.Rate == r.Low || p.Rate == r.High) && len(p.Tails) > 0 && p.Tails[0].Verdict == "too few operations" {
			r.ByPercentile = true
		}
	}
	r.Seconds = float64(int64(r.Seconds*10+0.5)) / 10
	return r
}

// tailText is a probe's tails for its progress line.
func tailText(tails []results.ProbeTail) string {
	var parts []string
	for _, t := range tails {
		parts = append(parts, fmt.Sprintf("%.2f%% over %gms (%.2f%% to %.2f%%, %d ops in %.1fs)", 100*t.Share, t.BoundMs, 100*t.Low, 100*t.High, t.Operations, t.Seconds))
	}
	return strings.Join(parts, ", ")
}

// tooFew: a tail whose operations, at this probe's rate over all the
// segments the budget allows, could not show a pass even with none over
// the bound (Wilson's upper end for 0 of n at or above the share allowed).
func tooFew(tails []results.ProbeTail, ext *extension, segments int) bool {
	for _, t := range tails {
		perSegment := float64(t.Operations) / float64(ext.segments)
		n := int64(perSegment * float64(segments))
		if _, hi := Wilson(0, n, Confidence); hi >= t.Allowed {
			return true
		}
	}
	return false
}
