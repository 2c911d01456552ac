package capacity

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/mongoload/mongoload/internal/results"
)

// The thresholds past which a capacity answer is unreliable: other work
// on the host taking more than MaxInterference of its cores, or the
// hypervisor stealing more than MaxSteal, during a probe that decided it.
// On a host of 2 cores 10% is a fifth of a core: enough, beside a server
// and a client that each want a core, to move a p99 by milliseconds.
const (
	MaxInterference = 0.10
	MaxSteal        = 0.05
)

// Assess says how far a search's answer can be trusted, from its own
// probes: the interference during the probes that decided it (those at
// the answer, at the failing rate above it, and every failure, each of
// which moved the bracket down), and probes that disagreed where they
// should not (a failure at or below the answer, a pass above the failing
// rate above it). It sets f.Reliable, f.ReliableWhy and f.Reliability.
func Assess(f *results.FindMax) {
	r := &results.Reliability{MaxInterference: MaxInterference, MaxSteal: MaxSteal}
	measured := false
	above := 0.0
	if f.FailedAbove != nil {
		above = f.FailedAbove.Rate
	}
	for i, p := range f.Probes {
		if p.Interrupted != "" {
			r.Stalled++
		}
		if p.Terms == nil || p.Result == nil {
			continue
		}
		deciding := !f.Found || !p.Pass || p.Rate == f.MaxRate || p.Rate == above
		if in := p.Result.Interference; in != nil && deciding {
			measured = true
			if share, cores := in.Judged(); share > r.Interference || r.Probe == 0 {
				r.Interference, r.Probe, r.Cores = share, i+1, cores
			}
			r.Steal = math.Max(r.Steal, in.StealShare)
		}
	}
	var worst string
	if calibrationNoise(f.Calibration, r, &worst) {
		measured = true
		if worst != "" {
			r.Probe = 0 // the worst was a calibration level's
		}
	}
	r.Unmeasured = !measured
	r.Disagreements, r.Repeats = disagreements(f, above)
	why := verdict(r, f)
	ok := why == ""
	if ok {
		why = reliableWhy(r)
	}
	f.Reliable, f.ReliableWhy, f.Reliability = &ok, why, r
}

// disagreements are the rates whose probes told two stories where the
// answer depends on them: a failure at or below the answer, a pass at or
// above the failing rate above it.
func disagreements(f *results.FindMax, above float64) (out, repeats []results.Disagreement) {
	type tally struct {
		pass, fail int
		p99        []float64
	}
	by := map[float64]*tally{}
	for _, p := range f.Probes {
		if p.Terms == nil || p.Result == nil {
			continue
		}
		t := by[p.Rate]
		if t == nil {
			t = &tally{}
			by[p.Rate] = t
		}
		if p.Pass {
			t.pass++
		} else {
			t.fail++
		}
		t.p99 = append(t.p99, p.Result.Totals.Latency.P99)
	}
	var rates []float64
	for r := range by {
		rates = append(rates, r)
	}
	slices.Sort(rates)
	// A decided search's rule (edge.go) weighs its windows itself: a
	// failure it set aside (a stall that passes around it outvoted) or a
	// pass above the high end that failures outvote is the edge, not a
	// disagreement. Only what contradicts the rule's answer is one.
	var rule *edgeView
	if f.MaxRateInterval != nil {
		v := viewEdge(outcomesOf(f.Probes))
		rule = &v
	}
	spread := func(t *tally) float64 {
		if lo, hi := slices.Min(t.p99), slices.Max(t.p99); lo > 0 {
			return math.Round(hi/lo*100) / 100
		}
		return 0
	}
	for _, rate := range rates {
		t := by[rate]
		if t.pass+t.fail > 1 {
			repeats = append(repeats, results.Disagreement{Rate: rate, Passed: t.pass, Failed: t.fail, P99Spread: spread(t),
				Text: fmt.Sprintf("%s ops/s: %d passed, %d failed, p99 %.3f to %.3f ms", results.Target(rate), t.pass, t.fail, slices.Min(t.p99), slices.Max(t.p99))})
		}
		low := f.Found && rate <= f.MaxRate && t.fail > 0
		high := above > 0 && rate >= above && t.pass > 0
		if rule != nil {
			low = low && rule.blocks(rate)
			high = high && t.pass > t.fail && !rule.leansFail(rate)
		}
		var text string
		switch {
		case low:
			text = fmt.Sprintf("at %s ops/s, at or below the answer, %d of %d probes failed", results.Target(rate), t.fail, t.pass+t.fail)
		case high:
			text = fmt.Sprintf("at %s ops/s, at or above the failing rate, %d of %d probes passed", results.Target(rate), t.pass, t.pass+t.fail)
		default:
			continue
		}
		out = append(out, results.Disagreement{Rate: rate, Passed: t.pass, Failed: t.fail, P99Spread: spread(t), Text: text})
	}
	return out, repeats
}

// verdict is why the answer is unreliable, "" when it is not.
func verdict(r *results.Reliability, f *results.FindMax) string {
	var why []string
	if r.Interference > MaxInterference {
		during := fmt.Sprintf("probe %d", r.Probe)
		if r.Probe == 0 {
			during = "the calibration"
		}
		why = append(why, fmt.Sprintf("other work on this host used %.0f%% of %s during %s (more than %.0f%%)", 100*r.Interference, coresText(r.Cores), during, 100*MaxInterference))
	}
	if r.Steal > MaxSteal {
		why = append(why, fmt.Sprintf("the hypervisor stole %.0f%% of the CPU during a deciding probe (more than %.0f%%)", 100*r.Steal, 100*MaxSteal))
	}
	if n := len(r.Disagreements); n > 0 {
		why = append(why, "its probes disagreed: "+r.Disagreements[0].Text)
	}
	if stalledJudged(f) {
		why = append(why, "the server stopped answering in every try of one rate, so a pause was judged")
	}
	if len(why) == 0 {
		return ""
	}
	return "Unreliable: " + strings.Join(why, "; ") + ". Run it again on a quiet host (or give --accept-noise to keep this answer)."
}

// stalledJudged: a probe was judged although the server stalled in it
// (every retry stalled too).
func stalledJudged(f *results.FindMax) bool {
	for _, p := range f.Probes {
		if p.Interrupted != "" && p.Terms != nil {
			return true
		}
	}
	return false
}

func reliableWhy(r *results.Reliability) string {
	noise := fmt.Sprintf("other work on this host used at most %.0f%% of %s during the deciding probes", 100*r.Interference, coresText(r.Cores))
	if r.Unmeasured {
		noise = "the host's CPU could not be read (/proc/stat), so other work on it is unknown"
	}
	s := "Reliable: " + noise + " (at most " + fmt.Sprintf("%.0f%%", 100*MaxInterference) + " allowed), and the probes at and around the answer agreed"
	if r.Stalled > 0 {
		s += fmt.Sprintf("; %d probe(s) the server's pauses interrupted were run again", r.Stalled)
	}
	return s + "."
}

// AssessSweep says how far a sweep's verdicts can be trusted: unreliable
// when other work on the host (or steal) passed the thresholds during a
// finished step, or during a calibration level. It sets sw.Reliable,
// sw.ReliableWhy and sw.Reliability.
func AssessSweep(sw *results.Sweep) {
	r := &results.Reliability{MaxInterference: MaxInterference, MaxSteal: MaxSteal}
	measured := false
	worst := ""
	for i, st := range sw.Steps {
		if !st.Complete || st.Result == nil || st.Result.Interference == nil {
			continue
		}
		in := st.Result.Interference
		measured = true
		if share, cores := in.Judged(); share > r.Interference || r.Probe == 0 {
			r.Interference, r.Probe, r.Cores = share, i+1, cores
			worst = "step " + fmt.Sprint(i+1) + " (" + sw.Load.Describe(st.Level) + ")"
		}
		r.Steal = math.Max(r.Steal, in.StealShare)
	}
	measured = calibrationNoise(sw.Calibration, r, &worst) || measured
	r.Unmeasured = !measured
	var why []string
	if r.Interference > MaxInterference {
		why = append(why, fmt.Sprintf("other work on this host used %.0f%% of %s during %s (more than %.0f%%)", 100*r.Interference, coresText(r.Cores), worst, 100*MaxInterference))
	}
	if r.Steal > MaxSteal {
		why = append(why, fmt.Sprintf("the hypervisor stole %.0f%% of the CPU during a step (more than %.0f%%)", 100*r.Steal, 100*MaxSteal))
	}
	ok := len(why) == 0
	text := "Unreliable: " + strings.Join(why, "; ") + ". Run it again on a quiet host (or give --accept-noise to keep these verdicts)."
	if ok {
		text = fmt.Sprintf("Reliable: other work on this host used at most %.0f%% of its CPU during the steps (at most %.0f%% allowed).", 100*r.Interference, 100*MaxInterference)
		if r.Unmeasured {
			text = "Reliable as far as can be told: the host's CPU could not be read (/proc/stat), so other work on it is unknown."
		}
	}
	sw.Reliable, sw.ReliableWhy, sw.Reliability = &ok, text, r
}

// calibrationNoise raises r's interference to a calibration level's,
// naming it in worst; true when a level had it measured.
func calibrationNoise(c *results.Calibration, r *results.Reliability, worst *string) bool {
	if c == nil {
		return false
	}
	measured := false
	for _, pt := range c.Points {
		if pt.Interference == nil {
			continue
		}
		measured = true
		if *pt.Interference > r.Interference {
			r.Interference = *pt.Interference
			*worst = "the calibration at " + (results.SweepLoad{Parameter: c.Parameter}).Describe(pt.Level)
		}
	}
	return measured
}

// coresText names the CPU the interference was judged on: the cores the
// server and mongoload may run on when those are fewer than the host's
// (other work beside them does not slow the probe), else the host's.
func coresText(cores string) string {
	if cores == "" {
		return "its CPU"
	}
	return "CPU " + cores + " (the server's and mongoload's; other work on the others does not slow the probe)"
}
