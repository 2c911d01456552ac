package history

import (
	"cmp"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"slices"

	"github.com/mongoload/mongoload/internal/results"
)

// Options say what to analyse and how.
type Options struct {
	Method Method
	// Metrics are the metrics (or kinds: "p99") to show; none: all.
	Metrics []string
	// Threshold is the smallest worsening, as a share, that makes a
	// change point a regression (DefaultThreshold).
	Threshold float64
}

// DefaultThreshold is --threshold's default: 5%.
const DefaultThreshold = 0.05

// MinPoints is the fewest values a series needs for a change point: one
// on each side of it and a third to tell a change from a difference.
const MinPoints = 3

// ErrNothing is a selection with no series long enough to analyse.
var ErrNothing = errors.New("nothing to analyse")

// Analyse groups entries (in time order) by workload and finds each
// metric's change points. It fails with ErrNothing when no series has
// MinPoints values.
func Analyse(store string, entries []Entry, o Options) (*results.History, error) {
	h := &results.History{Schema: results.HistorySchema, Store: Redact(store),
		Method: results.HistoryMethod{Name: "e-divisive means", PValue: o.Method.PValue, Permutations: o.Method.Permutations, Seed: o.Method.Seed, Threshold: o.Threshold}}
	if len(entries) == 0 {
		return h, fmt.Errorf("%w: %s holds no result that the selection (--workload, --label, --since) names", ErrNothing, h.Store)
	}
	longest := 0
	for _, name := range workloads(entries) {
		w := results.HistoryWorkload{Name: name}
		var es []Entry
		for _, e := range entries {
			if e.Workload == name {
				es = append(es, e)
				w.Runs = append(w.Runs, results.HistoryRun{Time: e.Time, Label: e.Label, Host: e.Host, Version: e.Version, Digest: e.Digest, Schema: e.Schema})
			}
		}
		for _, metric := range metricNames(es, o.Metrics) {
			s := series(name, metric, es, w.Runs, o)
			longest = max(longest, s.Measured())
			w.Series = append(w.Series, s)
		}
		if len(w.Series) > 0 {
			h.Workloads = append(h.Workloads, w)
		}
	}
	switch {
	case len(h.Workloads) == 0:
		return h, fmt.Errorf("%w: no metric of %s's results is named by --metric %v", ErrNothing, h.Store, o.Metrics)
	case longest < MinPoints:
		return h, fmt.Errorf("%w: the longest series has %d result(s); a change point needs %d or more: run the workload with --history again", ErrNothing, longest, MinPoints)
	}
	return h, nil
}

// series is one metric's values over the runs and its change points.
func series(workload, metric string, es []Entry, runs []results.HistoryRun, o Options) results.HistorySeries {
	s := results.HistorySeries{Metric: metric, Unit: Unit(metric), HigherIsBetter: HigherIsBetter(metric), Values: make([]*float64, len(es))}
	var xs []float64
	var at []int // the run of each value of xs
	for i, e := range es {
		if v, ok := e.Metrics[metric]; ok && !math.IsNaN(v) && !math.IsInf(v, 0) { // not measured (0/0); a CSV's refused where read
			s.Values[i] = &v
			xs, at = append(xs, v), append(at, i)
		}
	}
	if len(xs) < MinPoints {
		s.TooFew = true
		return s
	}
	h := fnv.New64a()
	h.Write([]byte(workload + "\x00" + metric))
	splits := o.Method.ChangePoints(xs, h.Sum64())
	bounds := []int{0}
	for _, sp := range splits {
		bounds = append(bounds, sp.Index)
	}
	bounds = append(bounds, len(xs))
	for i, sp := range splits {
		before, after := mean(xs[bounds[i]:sp.Index]), mean(xs[sp.Index:bounds[i+2]])
		run := at[sp.Index]
		cp := results.ChangePoint{Run: run, Label: runs[run].Label, Time: runs[run].Time, PValue: sp.PValue, MeanBefore: before, MeanAfter: after}
		worse := 0.0
		// after/|before| - sign(before), not (after-before)/|before|:
		// the difference of two values near ±1.8e308 overflows
		ratio := after/math.Abs(before) - math.Copysign(1, before)
		switch {
		case before != 0 && !math.IsInf(100*ratio, 0):
			cp.Change = 100 * ratio
			worse = ratio
		case after > before:
			worse = math.Inf(1) // errors where there were none: worse by any threshold
		case after < before:
			worse = math.Inf(-1)
		}
		if s.HigherIsBetter {
			worse = -worse
		}
		cp.Regression = worse > o.Threshold
		s.ChangePoints = append(s.ChangePoints, cp)
	}
	if n := len(s.ChangePoints); n > 0 {
		s.Regressed = s.ChangePoints[n-1].Regression
	}
	return s
}

// Regressed lists the gated series whose latest change point is a
// regression, as "workload throughput". The gate watches the metrics
// --metric named, or without it the throughput and the errors: the
// latencies and the client's CPU of a shared CI host move with whatever
// else runs there (docs/history.md), and are gated when named.
func Regressed(h *results.History, named bool) []string {
	var out []string
	for _, w := range h.Workloads {
		for _, s := range w.Series {
			if s.Regressed && (named || gatedByDefault(s.Metric)) {
				out = append(out, w.Name+" "+s.Metric)
			}
		}
	}
	return out
}

// workloads are the entries' workloads in the order they first appear.
func workloads(es []Entry) []string {
	var out []string
	for _, e := range es {
		if !slices.Contains(out, e.Workload) {
			out = append(out, e.Workload)
		}
	}
	return out
}

// metricNames are the metrics the entries measured that patterns select,
// throughput first, then the others by name.
func metricNames(es []Entry, patterns []string) []string {
	var out []string
	for _, e := range es {
		for m := range e.Metrics {
			if !slices.Contains(out, m) && selected(m, patterns) {
				out = append(out, m)
			}
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		return cmp.Or(rank(a)-rank(b), cmp.Compare(a, b))
	})
	return out
}

func gatedByDefault(m string) bool { return rank(m) == 0 || m == Errors }

func rank(m string) int {
	switch m {
	case Throughput, MaxRate, PeakRate:
		return 0
	case Errors:
		return 2
	case CPUPerOp:
		return 3
	}
	return 1
}

func selected(m string, patterns []string) bool {
	return len(patterns) == 0 || slices.ContainsFunc(patterns, func(p string) bool { return Matches(p, m) })
}

// mean is the mean of xs, finite when they are: summed as they are, or
// each divided first where their sum overflows (values near 1.8e308).
func mean(xs []float64) float64 {
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	if !math.IsInf(sum, 0) {
		return sum / float64(len(xs))
	}
	sum = 0
	for _, x := range xs {
		sum += x / float64(len(xs))
	}
	return sum
}
