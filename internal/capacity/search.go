package capacity

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mongoload/mongoload/internal/analysis"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/sink"
)

// RunFunc measures one open-loop run at rate ops/s on the prepared data,
// its warm-up included, and returns its full result. An error means the
// run could not go on (interrupted, the server lost, it could not start):
// the search stops there, keeping a result returned beside the error.
type RunFunc func(ctx context.Context, rate float64, stage Stage) (*results.Result, error)

// Search finds the highest rate meeting the objectives by Policy, judging
// each probe with Judge.
type Search struct {
	Policy        Policy
	Objectives    []analysis.Objective
	AchievedShare float64
	Run           RunFunc
	// RunCounted, if set, is used instead of Run: the run also reports to
	// counts, the sink that counts the operations over each latency
	// objective's bound, and the probe is judged by those counts as
	// proportions with their uncertainty (ProportionInterval); one whose
	// interval straddles the share allowed is extended at the same rate,
	// up to MaxExtensions more runs, its counts pooled.
	RunCounted    func(ctx context.Context, rate float64, stage Stage, counts sink.Sink) (*results.Result, error)
	MaxExtensions int
	// OnProbe is told of every probe once judged (the file is rewritten,
	// a progress line printed); nil for none.
	OnProbe func(f *results.FindMax)
}

// MaxPauseRetries is how many times in a row a probe the server's pause
// interrupted is run again before it is judged as it is.
const MaxPauseRetries = 2

// Do runs the search into f (its probes, MaxRate, Found, Bracketed,
// FailedAbove). The error is a run's that stopped the search. A probe
// whose run returns a *Paused error (the server stopped answering during
// it and came back) is kept, not judged, and run again.
func (s Search) Do(ctx context.Context, f *results.FindMax) error {
	var history []Outcome
	retries := 0
	tails := tailObjectives(s.Objectives)
	counted := s.RunCounted != nil && len(tails) > 0
	s.Policy.Decided = s.Policy.Decided || counted
	var ext *extension // the probe being extended, nil between probes
	segments := 1      // the last window's runs
	for {
		var d Decision
		if ext != nil {
			d = Decision{Rate: ext.rate, Stage: Extend}
		} else if counted {
			// Extensions and pauses' retries count against the probe
			// budget too: the search's time is bounded whatever the host
			// does, and each decision plans with the probes truly left.
			d = s.Policy.NextWithin(history, s.Policy.MaxProbes-len(f.Probes))
		} else {
			d = s.Policy.Next(history)
		}
		if d.Done {
			f.MaxRate, f.Found, f.Bracketed = d.Max, d.Found, d.Bracketed
			f.FailedAbove = failedAbove(f, d.Hi)
			if counted {
				f.MaxRateInterval = rateInterval(f, d, history)
			}
			return nil
		}
		var counter *tailCounter
		var res *results.Result
		var err error
		if counted {
			counter = newTailCounter(tails)
			res, err = s.RunCounted(ctx, d.Rate, d.Stage, counter)
		} else {
			res, err = s.Run(ctx, d.Rate, d.Stage)
		}
		var paused *Paused
		if errors.As(err, &paused) && res != nil {
			if retries < MaxPauseRetries {
				retries++
				f.Probes = append(f.Probes, results.Probe{Rate: d.Rate, Stage: string(d.Stage), Result: res, Interrupted: paused.What})
				if s.OnProbe != nil {
					s.OnProbe(f)
				}
				continue // the same decision: the rate again
			}
			err = nil // paused every time at this rate: judged as measured, and the answer is unreliable
			res.Notes = append(res.Notes, "the server stopped answering during this probe and came back: "+paused.What+"; judged as measured after "+fmt.Sprint(MaxPauseRetries)+" retries")
		}
		retries = 0
		if res != nil {
			p := results.Probe{Rate: d.Rate, Stage: string(d.Stage), Result: res}
			if paused != nil {
				p.Interrupted = paused.What
			}
			if err == nil {
				terms, pass, jerr := Judge(res, d.Rate, s.Objectives, s.AchievedShare)
				if jerr != nil {
					return fmt.Errorf("judge the probe at %s ops/s: %w", results.Target(d.Rate), jerr)
				}
				p.Terms, p.Pass = terms, pass
				if counted {
					ext = ext.add(d.Rate, counter.Counts(), res.DurationSeconds)
					var more bool
					p, more = s.judgeProbe(p, tails, ext, len(f.Probes))
					if more { // inconclusive: extended at the same rate
						f.Probes = append(f.Probes, p)
						if s.OnProbe != nil {
							s.OnProbe(f)
						}
						continue
					}
					segments, ext = ext.segments, nil
				}
			}
			f.Probes = append(f.Probes, p)
			if s.OnProbe != nil {
				s.OnProbe(f)
			}
		}
		if err != nil {
			// What was found so far stands, unconfirmed.
			lo, hi := bracket(tally(history))
			if s.Policy.Decided { // only a rate shown to pass is an answer
				v := viewEdge(history)
				lo, hi = v.shown, v.hi
			}
			f.MaxRate, f.Found = lo, lo > 0
			f.FailedAbove = failedAbove(f, hi)
			return err
		}
		last := f.Probes[len(f.Probes)-1]
		// A window judged with its uncertainty is decided about itself;
		// the policy decides the rate from its windows (edge.go).
		history = append(history, Outcome{Rate: d.Rate, Pass: last.Pass, Clear: notCarried(last.Terms), Inconclusive: last.Inconclusive, Segments: segments})
		segments = 1
	}
}

// judgeProbe judges a probe by its tails, pooled over its segments so
// far (ext): pass or fail when its interval shows it; to be extended (more
// true, its Terms cleared: the next segment decides) while it straddles
// the share allowed and the budget allows; not shown to pass when the
// budget ran out. A probe with too few operations for any interval to
// show a pass even extended is judged by its percentile, as measured.
func (s Search) judgeProbe(p results.Probe, tails []tailObjective, ext *extension, probes int) (out results.Probe, more bool) {
	p.Tails = judgeTails(tails, ext.pooled, ext.seconds, ext.segments)
	if tooFew(p.Tails, ext, 1+s.MaxExtensions) {
		for i := range p.Tails {
			p.Tails[i].Verdict = "too few operations"
		}
		return p, false
	}
	others := true // the terms besides the tails: drops, errors, the rate achieved
	for _, t := range p.Terms {
		others = others && (t.Pass || isTail(t.Text, tails))
	}
	p.Pass = applyTails(p.Terms, p.Tails)
	if tailVerdict(p.Tails) == "inconclusive" && others {
		if ext.segments <= s.MaxExtensions && probes+1 < s.Policy.MaxProbes {
			p.Terms, p.Pass = nil, false
			return p, true
		}
		// Still straddling when the extensions ran out: judged by its
		// point estimate (applyTails), and marked; the rate's verdict is
		// its windows' (edge.go).
		p.Inconclusive = true
	}
	return p, false
}

// notCarried says whether a probe's failure shows the rate was not
// carried: operations dropped, or too little of the rate achieved.
func notCarried(terms []results.Term) bool {
	for _, t := range terms {
		if !t.Pass && (t.Text == DroppedTerm || strings.HasPrefix(t.Text, "achieved")) {
			return true
		}
	}
	return false
}

// failedAbove is the lowest failing rate above the maximum and its failed
// terms (the lowest failing rate when none met the service level; an
// inconclusive probe is judged by its point estimate); at rate hi when the search named it
// (a decided search's lowest rate shown to fail above the answer).
func failedAbove(f *results.FindMax, hi float64) *results.FailedProbe {
	var best *results.Probe
	for i := range f.Probes {
		p := &f.Probes[i]
		if !p.Pass && p.Terms != nil && p.Rate > f.MaxRate && (hi == 0 || p.Rate == hi) && (best == nil || p.Rate < best.Rate) {
			best = p
		}
	}
	if best == nil {
		return nil
	}
	return &results.FailedProbe{Rate: best.Rate, Failed: Failed(best.Terms)}
}

// Conclude names what limited the rate (analysis.LimitAt the lowest
// failing rate above the maximum, the sweep's own diagnosis) and writes the
// summary sentence.
func Conclude(f *results.FindMax, o analysis.SweepOptions) error {
	sw := f.Sweep()
	a, err := analysis.AnalyseSweep(sw, o)
	if err != nil {
		return err
	}
	f.Limit = results.Limit{Kind: "none", Text: "nothing: no probe failed"}
	if f.FailedAbove != nil {
		for i, st := range sw.Steps {
			if st.Level == f.FailedAbove.Rate {
				f.Limit = analysis.LimitAt(sw, a, i, o)
			}
		}
	}
	Assess(f)
	if in := noiseAt(f); in != nil && strings.HasPrefix(f.Limit.Kind, "server") {
		// A server that waited on a busy host is not a server at its limit.
		f.Limit = results.Limit{Kind: "host-noise", Text: fmt.Sprintf("other work on this host, not a measured limit of the server: it used %.0f%% of the host's %d cores during the failing probe at %s ops/s%s",
			100*in.OtherShare, in.Cores, results.Target(f.FailedAbove.Rate), serverShare(in))}
	}
	f.Summary = summary(f)
	return nil
}

// noiseAt is the interference of the failing probe above the answer when
// it passed the threshold; nil otherwise.
func noiseAt(f *results.FindMax) *results.Interference {
	if f.FailedAbove == nil {
		return nil
	}
	for i := len(f.Probes) - 1; i >= 0; i-- {
		p := f.Probes[i]
		if p.Rate == f.FailedAbove.Rate && p.Terms != nil && p.Result != nil && p.Result.Interference != nil {
			if in := p.Result.Interference; judged(in) > MaxInterference || in.StealShare > MaxSteal {
				return in
			}
			return nil
		}
	}
	return nil
}

func serverShare(in *results.Interference) string {
	if in.Server == nil {
		return ""
	}
	return fmt.Sprintf(", while the server itself used %.2f cores", *in.Server)
}

// summary is the search's conclusion in one sentence: the highest rate
// meeting the service level, the term that failed above it, the limit.
func summary(f *results.FindMax) string {
	slo := strings.Join(f.SLO, ",")
	if !f.Found {
		return notFound(f, slo)
	}
	s := fmt.Sprintf("The highest rate meeting %s is %s ops/s", slo, results.Target(f.MaxRate))
	if p := f.MaxProbe(); p != nil {
		s += fmt.Sprintf(" (p99 %.3f ms, %.1f ops/s achieved", p.Result.Totals.Latency.P99, p.Result.Totals.Throughput)
		if f.MaxRateInterval != nil {
			s += ", shown to pass with " + fmt.Sprintf("%.0f%%", 100*f.MaxRateInterval.Confidence) + " confidence"
		} else if repeats(f, f.MaxRate) > 1 {
			s += ", held on a repeat"
		} else if f.Outcome == results.Completed {
			s += ", not repeated: the probes ran out (--max-probes) before the repeat, so it is unconfirmed"
		} else {
			s += ", not repeated: the search stopped early, so it is unconfirmed"
		}
		s += ")"
	}
	if f.FailedAbove == nil {
		return s + fmt.Sprintf("; no probe above it failed, so it is a lower bound only: raise --max-probes or --start.")
	}
	s += fmt.Sprintf("; at %s ops/s %s failed; limited by %s.", results.Target(f.FailedAbove.Rate), strings.Join(f.FailedAbove.Failed, ", "), f.Limit.Text)
	if iv := f.MaxRateInterval; iv != nil {
		s += " " + results.IntervalText(iv) + "."
	}
	return s
}

func repeats(f *results.FindMax, rate float64) int {
	n := 0
	for _, p := range f.Probes {
		if p.Rate == rate && p.Pass {
			n++
		}
	}
	return n
}

func judged(in *results.Interference) float64 { share, _ := in.Judged(); return share }
