package analysis

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/mongoload/mongoload/internal/results"
)

// RelObjective is an objective of a comparison, checked for every input
// against the baseline: "throughput>=2x" (at least twice the baseline's),
// "read.p95<=+5%" (at most 5% above the baseline's), or an absolute value
// in the metric's unit, "p99<=20ms", "errors<=0.1".
type RelObjective struct {
	Text   string
	Metric string // a comparison row key: throughput, p99, read.p95, find.avg, throughput-per-cost, ...
	Op     string // <=, <, >=, >
	// Ratio (with "x") or Percent (a signed "%" change) are relative to
	// the baseline; otherwise Value is absolute.
	Ratio, Percent bool
	Value          float64
}

// objectiveAliases are other names for row keys.
var objectiveAliases = map[string]string{
	"max-throughput": "throughput", "ops": "throughput", "throughput/cost": "throughput-per-cost",
	"tpc": "throughput-per-cost", "sweet-spot": "sweetspot", "saturation-point": "saturation",
}

// ParseRelObjective reads one comparison objective.
func ParseRelObjective(s string) (RelObjective, error) {
	o := RelObjective{Text: strings.TrimSpace(s)}
	i := strings.IndexAny(s, "<>")
	if i <= 0 {
		return o, fmt.Errorf("objective %q: write METRIC OP VALUE, such as throughput>=2x or read.p95<=+5%%", s)
	}
	o.Metric = strings.ToLower(strings.TrimSpace(s[:i]))
	if a, ok := objectiveAliases[o.Metric]; ok {
		o.Metric = a
	}
	o.Op = s[i : i+1]
	if i+1 < len(s) && s[i+1] == '=' {
		o.Op += "="
	}
	v := strings.TrimSpace(s[i+len(o.Op):])
	var err error
	switch {
	case strings.HasSuffix(v, "x"):
		o.Ratio = true
		o.Value, err = strconv.ParseFloat(strings.TrimSuffix(v, "x"), 64)
	case strings.HasSuffix(v, "%") && (strings.HasPrefix(v, "+") || strings.HasPrefix(v, "-")):
		o.Percent = true
		o.Value, err = strconv.ParseFloat(strings.TrimSuffix(v, "%"), 64)
	case strings.HasSuffix(v, "%"):
		o.Value, err = strconv.ParseFloat(strings.TrimSuffix(v, "%"), 64)
	case strings.HasSuffix(v, "s"): // a latency: 20ms, 1.5s, 500us
		o.Value, err = parseLatency(v)
	default:
		o.Value, err = strconv.ParseFloat(strings.ReplaceAll(v, ",", ""), 64)
	}
	if err != nil || v == "" {
		return o, fmt.Errorf("objective %q: %q is not a value: write 2x (times the baseline), +5%% or -10%% (change from the baseline), or a number", s, v)
	}
	return o, o.checkRange()
}

// checkRange refuses a bound outside its range (every compared figure is
// 0 or more: a ratio below 0x, a change below -100%, a value below 0),
// and one every input meets, as the SLO's terms do (Objective.checkRange).
func (o RelObjective) checkRange() error {
	lo, unit := 0.0, ""
	switch {
	case o.Ratio:
		unit = "x"
	case o.Percent:
		lo, unit = -100, "%"
	}
	switch v := o.Value; {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return fmt.Errorf("objective %q: the bound must be a finite number", o.Text)
	case v < lo:
		return fmt.Errorf("objective %q: %g%s is out of range: the figures compared are never below 0, so the bound is from %g%s up", o.Text, v, unit, lo, unit)
	case v == lo && o.Op == ">=":
		return fmt.Errorf("objective %q: every input meets it (the figures compared are never below 0), so it checks nothing", o.Text)
	}
	return nil
}

// target is the value the objective compares with, given the baseline's.
func (o RelObjective) target(base float64) float64 {
	switch {
	case o.Ratio:
		return base * o.Value
	case o.Percent:
		return base * (1 + o.Value/100)
	}
	return o.Value
}

// checkObjectives evaluates the objectives for every input but the baseline and
// marks the inputs that meet them all.
func checkObjectives(c *results.Comparison, objectives []RelObjective) error {
	if len(objectives) == 0 {
		return nil
	}
	meets := make([]bool, len(c.Inputs))
	for i := range meets {
		meets[i] = true
	}
	for _, o := range objectives {
		r := findRow(c, o.Metric)
		if r == nil {
			return fmt.Errorf("objective %q: no metric %q in this comparison (metrics: %s)", o.Text, o.Metric, strings.Join(rowKeys(c), ", "))
		}
		res := results.ObjectiveResult{Text: o.Text, Pass: make([]*bool, len(c.Inputs))}
		base := r.Values[c.Baseline]
		for i, v := range r.Values {
			if i == c.Baseline {
				continue
			}
			if v == nil || ((o.Ratio || o.Percent) && base == nil) {
				meets[i] = false
				continue
			}
			b := 0.0
			if base != nil {
				b = *base
			}
			pass := compare(*v, o.Op, o.target(b))
			res.Pass[i] = &pass
			meets[i] = meets[i] && pass
		}
		c.Objectives = append(c.Objectives, res)
	}
	for i := range c.Inputs {
		if i != c.Baseline {
			m := meets[i]
			c.Inputs[i].MeetsAll = &m
		}
	}
	return nil
}

func findRow(c *results.Comparison, key string) *results.ComparisonRow {
	for i := range c.Rows {
		if strings.EqualFold(c.Rows[i].Key, key) {
			return &c.Rows[i]
		}
	}
	return nil
}

func rowKeys(c *results.Comparison) []string {
	keys := make([]string, len(c.Rows))
	for i, r := range c.Rows {
		keys[i] = r.Key
	}
	return keys
}
