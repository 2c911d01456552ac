// Package analysis judges results: service-level objectives, sweep verdicts,
// comparisons. It reads results.Result values and never touches a server.
package analysis

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/mongoload/mongoload/internal/results"
)

// Verdict is one objective checked against one result.
type Verdict struct {
	Objective Objective
	Measured  float64 // in the objective's unit
	Pass      bool
	// Missing: the scope names no operation of the result.
	Missing bool
	// Dropped is how many open-loop operations that were due and never
	// sent a latency objective counted as infinite latencies (dropped).
	Dropped int64
}

// String renders the verdict for a report line.
func (v Verdict) String() string {
	mark := "PASS"
	if !v.Pass {
		mark = "FAIL"
	}
	if v.Missing && v.Objective.Watch {
		return fmt.Sprintf("%s  %-28s no watcher %q in the results", mark, v.Objective.Text, v.Objective.Scope)
	}
	if v.Missing {
		return fmt.Sprintf("%s  %-28s no operation %q in the results", mark, v.Objective.Text, v.Objective.Scope)
	}
	s := fmt.Sprintf("%s  %-28s measured %s", mark, v.Objective.Text, v.Objective.format(v.Measured))
	if v.Dropped > 0 {
		s += fmt.Sprintf(" (%d dropped operations counted as never answered)", v.Dropped)
	}
	return s
}

// Figure is the measured value alone, for a table's cell: "n/a" when the
// result has nothing to judge, the figure without its explanation.
func (v Verdict) Figure() string {
	if v.Missing {
		return "n/a"
	}
	s, _, _ := strings.Cut(v.Objective.format(v.Measured), " (")
	return s
}

// Shown is the measured value in the objective's unit, for people.
func (v Verdict) Shown() string {
	if v.Missing {
		return "n/a"
	}
	return v.Objective.format(v.Measured)
}

func (o Objective) format(x float64) string {
	switch {
	case math.IsInf(x, 1) && o.Watch:
		return "∞ (a watcher received no event)"
	case math.IsInf(x, 1):
		return "∞ (not every operation was answered)"
	case o.Metric == "throughput":
		return strconv.FormatFloat(x, 'f', 1, 64) + " ops/s"
	case (o.Metric == "errors" || o.Metric == "under") && o.Percent:
		return strconv.FormatFloat(x, 'f', 3, 64) + "%"
	case o.Metric == "errors":
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'f', 3, 64) + "ms"
}

// Check evaluates every objective against res.
func Check(res *results.Result, objectives []Objective) ([]Verdict, error) {
	out := make([]Verdict, 0, len(objectives))
	for _, o := range objectives {
		v, err := check(res, o)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// Passed reports whether every verdict passed.
func Passed(vs []Verdict) bool {
	for _, v := range vs {
		if !v.Pass {
			return false
		}
	}
	return true
}

func check(res *results.Result, o Objective) (Verdict, error) {
	v := Verdict{Objective: o}
	if o.Watch {
		return checkWatch(res, v), nil
	}
	ops := scoped(res, o.Scope)
	if len(ops) == 0 {
		v.Missing = true
		return v, nil
	}
	var count, errs int64
	for _, op := range ops {
		count += op.Count
		errs += op.Errors
	}
	switch o.Metric {
	case "throughput":
		if res.DurationSeconds > 0 {
			v.Measured = float64(count) / res.DurationSeconds
		}
	case "errors":
		v.Measured = float64(errs)
		if o.Percent {
			v.Measured = 0
			if count+errs > 0 {
				v.Measured = 100 * float64(errs) / float64(count+errs)
			}
		}
	default:
		h, err := merged(ops)
		if err != nil {
			return v, err
		}
		v.Dropped = dropped(res, ops, o.Scope)
		if o.Metric == "under" {
			v.Measured = shareUnder(h, o.Under, v.Dropped)
		} else {
			v.Measured = latencyOf(h, o, v.Dropped)
		}
	}
	v.Pass = compare(v.Measured, o.Op, o.Value)
	return v, nil
}

// scoped returns the operations an objective's scope names: all the mix's
// operations, one operation by name (a transaction's step too, named
// "transaction/step"), or the mix's operations of a type. Steps are parts
// of their transaction, never operations of the mix (results.Operation.InMix).
func scoped(res *results.Result, scope string) []*results.Operation {
	var out []*results.Operation
	for i := range res.Operations {
		op := &res.Operations[i]
		if op.Name == scope || (op.InMix() && (scope == "" || op.Type == scope)) {
			out = append(out, op)
		}
	}
	return out
}

// merged adds the operations' histograms: percentiles of several operations
// are those of all their samples together, never an average.
func merged(ops []*results.Operation) (*hdrhistogram.Histogram, error) {
	var all *hdrhistogram.Histogram
	for _, op := range ops {
		h, err := op.LatencyHistogram()
		if err != nil {
			return nil, fmt.Errorf("operation %s: %w", op.Name, err)
		}
		if all == nil {
			all = h
		} else {
			all.Merge(h)
		}
	}
	return all, nil
}

// latencyOf is o's metric of the latencies in h (µs) and of drops more
// that were never answered, each an infinite latency: with drops, max and
// avg are infinite, and a percentile is infinite once its rank falls among
// them. Nothing answered at all meets no latency objective.
func latencyOf(h *hdrhistogram.Histogram, o Objective, drops int64) float64 {
	n := h.TotalCount()
	if n == 0 {
		return math.Inf(1)
	}
	var us float64
	switch o.Metric {
	case "avg", "max":
		if drops > 0 {
			return math.Inf(1)
		}
		if o.Metric == "avg" {
			us = h.Mean()
		} else {
			us = float64(h.Max())
		}
	case "min":
		us = float64(h.Min())
	default:
		q := o.Pct
		if drops > 0 {
			rank := math.Ceil(o.Pct / 100 * float64(n+drops))
			if rank > float64(n) {
				return math.Inf(1)
			}
			q = 100 * rank / float64(n) // the same sample among the answered ones
		}
		us = float64(h.ValueAtQuantile(q))
	}
	return us / 1000
}

// dropped is how many open-loop drops fall to an objective over ops: all
// of them for the whole mix; for a narrower scope, its share of the mix's
// attempts (successes and errors), rounded up, since a drop happens before
// an operation is picked and could have been any.
func dropped(res *results.Result, ops []*results.Operation, scope string) int64 {
	d := res.Dropped()
	if d == 0 {
		return 0
	}
	if scope == "" {
		return d
	}
	var in, all int64
	for _, op := range ops {
		in += op.Count + op.Errors
	}
	for _, op := range res.MixOperations() {
		all += op.Count + op.Errors
	}
	if all == 0 {
		return d
	}
	return int64(math.Ceil(float64(d) * float64(in) / float64(all)))
}

func compare(x float64, op string, want float64) bool {
	switch op {
	case "<=":
		return x <= want
	case "<":
		return x < want
	case ">=":
		return x >= want
	default:
		return x > want
	}
}

// shareUnder is the share in percent of the operations in h (µs) answered
// within bound ms, drops counted as never answered. It is counted from
// the histogram's buckets, not read off a percentile: a bucket counts as
// under the bound when its lowest value is at most the bound, so the bound
// itself and the values the histogram cannot tell from it (3 significant
// digits) are under it. Nothing answered and nothing dropped is 0%.
func shareUnder(h *hdrhistogram.Histogram, boundMs float64, drops int64) float64 {
	all := h.TotalCount() + drops
	if all == 0 {
		return 0
	}
	bound := int64(math.Round(boundMs * 1000))
	var in int64
	for _, b := range h.Distribution() {
		if b.From > bound {
			break
		}
		in += b.Count
	}
	return 100 * float64(in) / float64(all)
}
