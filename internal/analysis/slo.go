// Package analysis judges results: service-level objectives, sweep verdicts,
// comparisons. It reads results.Result values and never touches a server.
package analysis

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/mongoload/mongoload/internal/results"
)

// Objective is one service-level objective, such as "p99<=20ms" or
// "find_flight:p99.9<50ms" or "throughput>=5000" or "errors<=0.1%".
type Objective struct {
	Text   string  // as written
	Scope  string  // an operation name or type; "" for all operations
	Metric string  // p50 ... p99.99, max, min, avg, throughput, errors, under
	Pct    float64 // the percentile, for pNN metrics
	// Under is the latency bound in ms of a share objective,
	// "under(10ms)>=99.5%": Value is then the share in percent.
	Under float64
	Op    string  // <=, <, >=, >
	Value float64 // latency in ms, throughput in ops/s, errors in % (Percent) or a count
	// Percent: an errors objective written in percent of operations.
	Percent bool
	// Watch: a watcher's delivery lag, "watch.lag.p99<=500ms" (Metric is
	// then p50 ... max of the lag; Scope a watcher's name or "" for every
	// watcher): watchslo.go.
	Watch bool
}

var metricsHelp = "p50, p90, p95, p99, p99.9 (any pNN), avg, min, max, throughput, errors, under(10ms)"

// ParseObjectives reads a comma-separated list of objectives.
func ParseObjectives(s string) ([]Objective, error) {
	var out []Objective
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		o, err := parseObjective(part)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--slo %q: no objective; write for example p99<=20ms,throughput>=5000", s)
	}
	return out, nil
}

func parseObjective(s string) (Objective, error) {
	o := Objective{Text: s}
	body := s
	if scope, rest, ok := strings.Cut(s, ":"); ok {
		o.Scope, body = strings.TrimSpace(scope), rest
	}
	i := strings.IndexAny(body, "<>")
	if i < 0 {
		return o, fmt.Errorf("objective %q: no comparison; write METRIC<=VALUE, for example p99<=20ms", s)
	}
	o.Metric = strings.ToLower(strings.TrimSpace(body[:i]))
	o.Op = body[i : i+1]
	if i+1 < len(body) && body[i+1] == '=' {
		o.Op += "="
	}
	value := strings.TrimSpace(body[i+len(o.Op):])
	if value == "" {
		return o, fmt.Errorf("objective %q: no value after %s", s, o.Op)
	}
	var err error
	switch {
	case strings.HasPrefix(o.Metric, watchPrefix):
		return parseWatchObjective(o, value)
	case strings.HasPrefix(o.Metric, "under(") && strings.HasSuffix(o.Metric, ")"):
		bound := strings.TrimSuffix(strings.TrimPrefix(o.Metric, "under("), ")")
		if o.Under, err = parseLatency(strings.TrimSpace(bound)); err != nil || o.Under <= 0 {
			return o, fmt.Errorf("objective %q: %q is not a positive latency bound; write under(10ms)>=99.5%%", s, bound)
		}
		o.Metric, o.Percent = "under", true
		o.Value, err = strconv.ParseFloat(strings.TrimSuffix(value, "%"), 64)
	case strings.HasPrefix(o.Metric, "p"):
		if o.Pct, err = strconv.ParseFloat(o.Metric[1:], 64); err != nil || o.Pct <= 0 || o.Pct > 100 {
			return o, fmt.Errorf("objective %q: %q is not a percentile such as p99 or p99.9", s, o.Metric)
		}
		o.Value, err = parseLatency(value)
	case o.Metric == "avg" || o.Metric == "min" || o.Metric == "max":
		o.Value, err = parseLatency(value)
	case o.Metric == "throughput":
		o.Value, err = strconv.ParseFloat(strings.TrimSuffix(value, "/s"), 64)
	case o.Metric == "errors":
		o.Percent = strings.HasSuffix(value, "%")
		o.Value, err = strconv.ParseFloat(strings.TrimSuffix(value, "%"), 64)
	default:
		return o, fmt.Errorf("objective %q: unknown metric %q (use %s)", s, o.Metric, metricsHelp)
	}
	if err != nil {
		return o, fmt.Errorf("objective %q: %q is not a valid value: %v", s, value, err)
	}
	return o, o.checkRange()
}

// checkRange refuses a bound outside its term's range, or one no run can
// miss (or meet): latencies, throughput and error counts are 0 or more,
// an error rate is 0 to 100%. "throughput>=-5" and "errors<=150%" passed
// every run, which an SLO must never do silently.
func (o Objective) checkRange() error {
	unit, hi := "", math.Inf(1)
	switch {
	case o.Percent: // an error rate, a share under a bound
		unit, hi = "%", 100
	case o.Metric == "throughput":
		unit = " operations/s"
	case o.Metric == "errors":
		unit = " errors"
	default:
		unit = " ms"
	}
	v := o.Value
	lo := 0.0
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return fmt.Errorf("objective %q: the bound must be a finite number", o.Text)
	case v < lo || v > hi:
		return fmt.Errorf("objective %q: %s is %s, so a bound of %g%s is out of its range and the objective could never fail (or never pass); give a bound from %g%s%s", o.Text, o.Metric, rangeWords(hi, unit), v, unit, lo, unit, upTo(hi, unit))
	case (o.Op == ">=" && v == lo) || (o.Op == "<=" && v == hi):
		return fmt.Errorf("objective %q: every run meets it (%s is %s), so it checks nothing; give a bound that a run can miss", o.Text, o.Metric, rangeWords(hi, unit))
	case (o.Op == "<" && v == lo) || (o.Op == ">" && v == hi):
		return fmt.Errorf("objective %q: no run can meet it (%s is %s)", o.Text, o.Metric, rangeWords(hi, unit))
	}
	return nil
}

func rangeWords(hi float64, unit string) string {
	if math.IsInf(hi, 1) {
		return "never below 0"
	}
	return fmt.Sprintf("from 0 to %g%s", hi, unit)
}

func upTo(hi float64, unit string) string {
	if math.IsInf(hi, 1) {
		return " up"
	}
	return fmt.Sprintf(" to %g%s", hi, unit)
}

// parseLatency reads "20ms", "1.5s", "500us" (a bare number is milliseconds).
func parseLatency(v string) (float64, error) {
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		return f, nil
	}
	d, err := time.ParseDuration(strings.ReplaceAll(v, "µ", "u"))
	if err != nil {
		return 0, fmt.Errorf("write a duration such as 20ms or 1.5s")
	}
	return float64(d) / float64(time.Millisecond), nil
}

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

// Unit is the unit of the objective's value: "ms", "%", "ops/s", or
// "operations" for a count of errors.
func (o Objective) Unit() string {
	switch {
	case o.Percent:
		return "%"
	case o.Metric == "throughput":
		return "ops/s"
	case o.Metric == "errors":
		return "operations"
	}
	return "ms"
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
	if res.Schedule == nil || res.Schedule.Dropped == 0 {
		return 0
	}
	d := res.Schedule.Dropped
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
