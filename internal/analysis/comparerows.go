package analysis

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mongoload/mongoload/internal/results"
)

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
