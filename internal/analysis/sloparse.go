package analysis

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
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
