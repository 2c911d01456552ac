package analysis

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mongoload/mongoload/internal/results"
)

// CompareInput is one compared file: a results file or a sweep.
type CompareInput struct {
	File   string
	Result *results.Result
	Sweep  *results.Sweep
}

// label names an input: its label, else its file name without extension.
func (in CompareInput) label() string {
	l := ""
	if in.Result != nil {
		l = in.Result.Label
	} else if in.Sweep != nil {
		l = in.Sweep.Label
	}
	if l == "" {
		l = strings.TrimSuffix(filepath.Base(in.File), filepath.Ext(in.File))
	}
	return l
}

func (in CompareInput) cost() *results.Cost {
	if in.Sweep != nil {
		return in.Sweep.Cost
	}
	return results.CostOf(in.Result)
}

// parameter is the load parameter of an input: concurrency, rate or sessions.
func (in CompareInput) parameter() string {
	if in.Sweep != nil {
		return in.Sweep.Load.Parameter
	}
	switch in.Result.Load.Type {
	case results.Open:
		return "rate"
	case results.Sessions:
		return "sessions"
	}
	return "concurrency"
}

// levels are the load levels an input measured completely.
func (in CompareInput) levels() []float64 {
	if in.Sweep == nil {
		l := in.Result.Load
		switch in.parameter() {
		case "rate":
			return []float64{l.Rate}
		case "sessions":
			return []float64{float64(l.Sessions)}
		}
		return []float64{float64(l.Concurrency)}
	}
	var out []float64
	for _, st := range in.Sweep.Steps {
		if st.Complete && st.Result != nil {
			out = append(out, st.Level)
		}
	}
	return out
}

// at is the result of an input at level (a sweep's step), or its own.
func (in CompareInput) at(level float64) *results.Result {
	if in.Sweep == nil {
		return in.Result
	}
	var last *results.Result
	for _, st := range in.Sweep.Steps {
		if st.Complete && st.Result != nil {
			last = st.Result
			if st.Level == level {
				return st.Result
			}
		}
	}
	return last // the highest complete step
}

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

// pointFunc computes a row's value for one input from the input and its
// result at the compared load; nil when the input has no such figure.
type pointFunc func(in CompareInput, atPoint *results.Result) *float64

// row makes a row with a value per input.
func row(metric, key, unit string, higher bool, inputs []CompareInput, points []*results.Result, f pointFunc) results.ComparisonRow {
	r := results.ComparisonRow{Metric: metric, Key: key, Unit: unit, HigherIsBetter: higher, Values: make([]*float64, len(inputs))}
	for i, in := range inputs {
		r.Values[i] = f(in, points[i])
	}
	return r
}

func ptr(f float64) *float64 { return &f }

func maxThroughput(in CompareInput) *float64 {
	if in.Sweep == nil {
		return ptr(in.Result.Totals.Throughput)
	}
	if f := in.Sweep.FindMax; f != nil { // the most it carried meeting its SLO, not a failing probe's
		if p := f.MaxProbe(); p != nil {
			return ptr(p.Result.Totals.Throughput)
		}
		return nil
	}
	if b := in.Sweep.Analysis.Best; b != nil {
		return ptr(in.Sweep.Analysis.Steps[*b].Throughput)
	}
	return nil
}

func sweepLevel(in CompareInput, which func(*results.SweepAnalysis) *int) *float64 {
	if in.Sweep == nil || in.Sweep.Analysis == nil {
		return nil
	}
	if i := which(in.Sweep.Analysis); i != nil {
		return ptr(in.Sweep.Analysis.Steps[*i].Level)
	}
	return nil
}

// classRows are the read and write latencies, for the classes any input has.
func classRows(inputs []CompareInput, points []*results.Result, at string) ([]results.ComparisonRow, error) {
	var out []results.ComparisonRow
	for _, class := range []string{ReadClass, WriteClass} {
		figs := make([]*results.Class, len(inputs))
		any := false
		for i, r := range points {
			f, err := ClassFigures(r, class)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", inputs[i].File, err)
			}
			figs[i], any = f, any || f != nil
		}
		if !any {
			continue
		}
		for _, p := range []string{"avg", "p95", "p99"} {
			r := results.ComparisonRow{Metric: fmt.Sprintf("%s %s %s (ms)", class, p, at), Key: class + "." + p, Unit: "ms", Values: make([]*float64, len(inputs))}
			for i, f := range figs {
				if f != nil && f.Operations > 0 {
					r.Values[i] = ptr(pick(f.Latency, p))
				}
			}
			out = append(out, r)
		}
	}
	return out, nil
}

// typeRows are the average latency per operation type (find, updateOne,
// ...), the operations of a type added by histogram.
func typeRows(inputs []CompareInput, points []*results.Result, at string) ([]results.ComparisonRow, error) {
	var types []string
	for _, r := range points {
		for _, op := range r.MixOperations() {
			if t := typeKey(*op); !slices.Contains(types, t) {
				types = append(types, t)
			}
		}
	}
	var out []results.ComparisonRow
	for _, t := range types {
		r := results.ComparisonRow{Metric: fmt.Sprintf("avg %s %s (ms)", t, at), Key: t + ".avg", Unit: "ms", Values: make([]*float64, len(inputs))}
		for i, res := range points {
			sub := &results.Result{DurationSeconds: res.DurationSeconds}
			for _, op := range res.MixOperations() {
				if typeKey(*op) == t {
					sub.Operations = append(sub.Operations, *op)
				}
			}
			if len(sub.Operations) == 0 {
				continue
			}
			h, err := merged(opPointers(sub.Operations))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", inputs[i].File, err)
			}
			if h.TotalCount() > 0 {
				r.Values[i] = ptr(round3(h.Mean() / 1000))
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// typeKey is an operation's type, or its name when the file does not say.
func typeKey(op results.Operation) string {
	if op.Type != "" {
		return op.Type
	}
	return op.Name
}

func opPointers(ops []results.Operation) []*results.Operation {
	out := make([]*results.Operation, len(ops))
	for i := range ops {
		out[i] = &ops[i]
	}
	return out
}

// costRows are the monthly cost and the throughput per 100 currency units
// per month, when every input with a cost gives it in one currency.
func costRows(c *results.Comparison, inputs []CompareInput) []results.ComparisonRow {
	currency, any := "", false
	for _, in := range c.Inputs {
		if in.Cost == nil || in.Cost.Monthly <= 0 {
			continue
		}
		if any && in.Cost.Currency != currency {
			c.Notes = append(c.Notes, fmt.Sprintf("costs are in different currencies (%q and %q): no throughput per cost", currency, in.Cost.Currency))
			return nil
		}
		currency, any = in.Cost.Currency, true
	}
	if !any {
		return nil
	}
	cur := strings.TrimSpace(currency + " ")
	if cur == "" {
		cur = "units "
	}
	cost := results.ComparisonRow{Metric: strings.TrimSpace("monthly cost " + currency), Key: "cost", Unit: currency, Values: make([]*float64, len(inputs))}
	tpc := results.ComparisonRow{Metric: "throughput per cost (ops/s per 100 " + cur + "/month)", Key: "throughput-per-cost",
		Unit: "ops/s per 100 " + cur + "/month", HigherIsBetter: true, Values: make([]*float64, len(inputs))}
	for i, in := range c.Inputs {
		if in.Cost == nil || in.Cost.Monthly <= 0 {
			continue
		}
		cost.Values[i] = ptr(in.Cost.Monthly)
		if x := maxThroughput(inputs[i]); x != nil {
			tpc.Values[i] = ptr(round3(*x / in.Cost.Monthly * 100))
		}
	}
	return []results.ComparisonRow{cost, tpc}
}

// changes is each value's change against the baseline's, in percent.
func changes(values []*float64, baseline int) []*float64 {
	out := make([]*float64, len(values))
	base := values[baseline]
	for i, v := range values {
		if i == baseline || v == nil || base == nil || *base == 0 {
			continue
		}
		out[i] = ptr(round3(100 * (*v / *base - 1)))
	}
	return out
}

// docsRows compare what the server did with documents: the share of reads,
// updates and deletes that found nothing, and documents returned per
// operation. A run whose operations mostly found nothing measured misses,
// not the application: a note says so when the inputs differ there.
func docsRows(c *results.Comparison, inputs []CompareInput, points []*results.Result, at string) []results.ComparisonRow {
	if !slices.ContainsFunc(points, func(r *results.Result) bool { return r != nil && r.Totals.Docs != nil }) {
		return nil
	}
	empty := row("empty results "+at+" (%)", "empty", "%", false, inputs, points, func(_ CompareInput, r *results.Result) *float64 {
		if r == nil || r.Totals.Docs == nil || r.Totals.Docs.Shaped == 0 {
			return nil
		}
		return ptr(100 * r.Totals.Docs.EmptyShare())
	})
	returned := row("documents returned per operation "+at, "returnedPerOp", "", true, inputs, points, func(_ CompareInput, r *results.Result) *float64 {
		if r == nil || r.Totals.Docs == nil || r.Totals.Operations == 0 {
			return nil
		}
		return ptr(float64(r.Totals.Docs.Returned) / float64(r.Totals.Operations))
	})
	for i, v := range empty.Values {
		if v != nil && *v > 100*results.DefaultEmptyThreshold {
			c.Notes = append(c.Notes, fmt.Sprintf("%s: %.0f%% of its reads, updates and deletes found no document: its latencies measure misses more than the application", c.Inputs[i].Label, *v))
		}
	}
	return []results.ComparisonRow{empty, returned}
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

// BaselineIndex finds --baseline among the inputs, by label or file.
func BaselineIndex(want string, inputs []CompareInput) (int, error) {
	if want == "" {
		return 0, nil
	}
	var labels []string
	for i, in := range inputs {
		label := ""
		if in.Result != nil {
			label = in.Result.Label
		} else if in.Sweep != nil {
			label = in.Sweep.Label
		}
		if label == want || in.File == want || filepath.Base(in.File) == want || filepath.Clean(in.File) == filepath.Clean(want) {
			return i, nil
		}
		if label != "" {
			labels = append(labels, label)
		}
	}
	return 0, fmt.Errorf("--baseline %q names no input: give a label (%s) or a file", want, strings.Join(labels, ", "))
}
