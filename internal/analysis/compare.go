package analysis

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/mongoload/mongoload/internal/results"
)

// Compare sets inputs side by side against the baseline input: max
// throughput, saturation point and sweet spot (sweeps), latencies at the
// highest load every input ran (overall, by class and by operation type),
// errors, cost and throughput per cost; checks the objectives against
// the baseline; and notes how the servers' contexts differ. Sweeps without an analysis are analysed with the default
// rules.
func Compare(inputs []CompareInput, baseline int, objectives []RelObjective) (*results.Comparison, error) {
	if len(inputs) < 2 {
		return nil, fmt.Errorf("compare needs at least two files")
	}
	if baseline < 0 || baseline >= len(inputs) {
		return nil, fmt.Errorf("baseline %d out of range", baseline)
	}
	c := &results.Comparison{Baseline: baseline}
	seen := map[string]bool{}
	for i := range inputs {
		in := &inputs[i]
		if in.Sweep != nil && in.Sweep.Analysis == nil {
			a, err := AnalyseSweep(in.Sweep, DefaultSweepOptions())
			if err != nil {
				return nil, fmt.Errorf("%s: %w", in.File, err)
			}
			in.Sweep.Analysis = a
		}
		if in.Sweep != nil && len(in.levels()) == 0 {
			return nil, fmt.Errorf("%s: the sweep has no complete step to compare", in.File)
		}
		kind := "results"
		if in.Sweep != nil {
			kind = "sweep"
		}
		l := in.label()
		if seen[l] {
			l = fmt.Sprintf("%s (%s)", l, filepath.Base(in.File))
		}
		seen[l] = true
		c.Inputs = append(c.Inputs, results.ComparedInput{Label: l, File: in.File, Kind: kind, Cost: in.cost()})
	}
	level, common := commonLevel(inputs)
	unit := results.SweepLoad{Parameter: inputs[0].parameter()}
	points := make([]*results.Result, len(inputs))
	for i, in := range inputs {
		points[i] = in.at(level)
	}
	if common {
		c.At = "at " + unit.Describe(level) + ", the highest load every input ran"
	} else {
		c.At = "at each input's own highest load (no load level is common to every input)"
		c.Notes = append(c.Notes, "the inputs ran no load level in common, so their latencies are each at their own highest load and compare less directly")
	}
	rows := []results.ComparisonRow{
		row("max throughput (ops/s)", "throughput", "ops/s", true, inputs, points, func(in CompareInput, _ *results.Result) *float64 { return maxThroughput(in) }),
	}
	if slices.ContainsFunc(inputs, func(in CompareInput) bool { return in.Sweep != nil }) {
		lu := unit.Unit()
		if lu == "ops/s" {
			lu = "rate"
		}
		rows = append(rows,
			row("saturation point ("+unit.Unit()+")", "saturation", lu, true, inputs, points, func(in CompareInput, _ *results.Result) *float64 {
				return sweepLevel(in, func(a *results.SweepAnalysis) *int { return a.Saturation })
			}),
			row("sweet spot ("+unit.Unit()+")", "sweetspot", lu, true, inputs, points, func(in CompareInput, _ *results.Result) *float64 {
				return sweepLevel(in, func(a *results.SweepAnalysis) *int { return a.SweetSpot })
			}),
			row("throughput "+shortAt(c.At, unit, level, common)+" (ops/s)", "point.throughput", "ops/s", true, inputs, points, func(_ CompareInput, r *results.Result) *float64 { return ptr(r.Totals.Throughput) }),
		)
	}
	at := shortAt(c.At, unit, level, common)
	for _, p := range []string{"p99", "p95", "avg"} {
		p := p
		rows = append(rows, row(p+" latency "+at+" (ms)", p, "ms", false, inputs, points, func(_ CompareInput, r *results.Result) *float64 { return ptr(pick(r.Totals.Latency, p)) }))
	}
	classRows, err := classRows(inputs, points, at)
	if err != nil {
		return nil, err
	}
	rows = append(rows, classRows...)
	typeRows, err := typeRows(inputs, points, at)
	if err != nil {
		return nil, err
	}
	rows = append(rows, typeRows...)
	rows = append(rows, row("errors "+at+" (%)", "errors", "%", false, inputs, points, func(_ CompareInput, r *results.Result) *float64 {
		t := r.Totals
		if t.Operations+t.Errors == 0 {
			return nil
		}
		return ptr(100 * float64(t.Errors) / float64(t.Operations+t.Errors))
	}))
	rows = append(rows, docsRows(c, inputs, points, at)...)
	rows = append(rows, costRows(c, inputs)...)
	for i := range rows {
		rows[i].Change = changes(rows[i].Values, baseline)
	}
	c.Rows = rows
	if err := checkObjectives(c, objectives); err != nil {
		return nil, err
	}
	c.Notes = append(c.Notes, compareContexts(inputs, c)...) // a 7.0 run beside an 8.0 one says so
	return c, nil
}

// shortAt is the load of the latency rows for their names.
func shortAt(_ string, unit results.SweepLoad, level float64, common bool) string {
	if common {
		return "at " + unit.Describe(level)
	}
	return "at highest load"
}

// commonLevel is the highest load level every input measured, if the
// inputs step the same parameter and have one in common.
func commonLevel(inputs []CompareInput) (float64, bool) {
	p := inputs[0].parameter()
	set := inputs[0].levels()
	for _, in := range inputs[1:] {
		if in.parameter() != p {
			return 0, false
		}
		other := in.levels()
		set = slices.DeleteFunc(set, func(v float64) bool { return !slices.Contains(other, v) })
	}
	if len(set) == 0 {
		return 0, false
	}
	return slices.Max(set), true
}

// compareContexts is contextDiffs for compared files: a sweep's context is
// its first step's.
func compareContexts(inputs []CompareInput, c *results.Comparison) []string {
	labels := make([]string, len(inputs))
	contexts := make([]*results.ServerContext, len(inputs))
	for i, in := range inputs {
		labels[i] = in.File
		if i < len(c.Inputs) && c.Inputs[i].Label != "" {
			labels[i] = c.Inputs[i].Label
		}
		switch {
		case in.Result != nil:
			contexts[i] = in.Result.Context
		case in.Sweep != nil:
			for _, st := range in.Sweep.Steps {
				if st.Result != nil && st.Result.Context != nil {
					contexts[i] = st.Result.Context
					break
				}
			}
		}
	}
	return contextDiffs(labels, contexts, c.Baseline)
}

// contextDiffs names the differences in server context between the
// baseline and the other compared results, one note each, so nobody
// compares a 7.0 run with an 8.0 run without being told.
func contextDiffs(labels []string, contexts []*results.ServerContext, base int) []string {
	if base < 0 || base >= len(contexts) {
		return nil
	}
	var notes []string
	for i, c := range contexts {
		if i == base {
			continue
		}
		if (c == nil) != (contexts[base] == nil) {
			missing := labels[i]
			if c != nil {
				missing = labels[base]
			}
			notes = append(notes, fmt.Sprintf("server context: %s recorded none (an older file), so the servers cannot be checked to be alike", missing))
			continue
		}
		for _, d := range results.DiffContext(contexts[base], c) {
			notes = append(notes, fmt.Sprintf("server context differs: %s: %s (%s) vs %s (%s)", d.Field, d.A, labels[base], d.B, labels[i]))
		}
	}
	return notes
}
