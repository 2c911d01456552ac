package history

import (
	"strings"

	"github.com/mongoload/mongoload/internal/results"
)

// The metrics' names. A per-operation metric is its kind and the
// operation's name: "p99_read". Names keep to letters, digits, _ and -, so
// that they are a CSV column, a YAML key (Apache Otava's configuration)
// and a MongoDB field name as they are.
const (
	Throughput = "throughput"   // successful operations per second
	Errors     = "errors"       // failed operations, % of all
	CPUPerOp   = "cpu_per_op"   // the client's CPU per successful operation, µs
	MaxRate    = "max_rate"     // findmax: the highest rate that met the SLO, ops/s
	PeakRate   = "peak_through" // sweep: the best step's throughput, ops/s
)

// percentiles are the per-operation latency metrics and where they are read.
var percentiles = []struct {
	prefix string
	of     func(results.Latency) float64
}{
	{"p50_", func(l results.Latency) float64 { return l.P50 }},
	{"p95_", func(l results.Latency) float64 { return l.P95 }},
	{"p99_", func(l results.Latency) float64 { return l.P99 }},
}

// HigherIsBetter says which way a metric improves.
func HigherIsBetter(metric string) bool {
	return metric == Throughput || metric == MaxRate || metric == PeakRate
}

// Unit is a metric's unit, for people.
func Unit(metric string) string {
	switch {
	case HigherIsBetter(metric):
		return "ops/s"
	case metric == Errors:
		return "% of operations"
	case metric == CPUPerOp:
		return "µs"
	}
	return "ms"
}

// resultMetrics flattens one run's result: its throughput and errors,
// each operation of the mix's p50, p95 and p99, and the client's CPU per
// operation (absent where it was not measured).
func resultMetrics(r *results.Result) map[string]float64 {
	m := map[string]float64{Throughput: r.Totals.Throughput}
	if all := r.Totals.Operations + r.Totals.Errors; all > 0 {
		m[Errors] = 100 * float64(r.Totals.Errors) / float64(all)
	}
	for _, op := range r.MixOperations() {
		if op.Count == 0 {
			continue // no latency measured: not a zero latency
		}
		for _, p := range percentiles {
			m[p.prefix+safe(op.Name)] = p.of(op.Latency)
		}
	}
	if r.Client != nil && r.Client.CPUPerOpMicros > 0 {
		m[CPUPerOp] = r.Client.CPUPerOpMicros
	}
	return m
}

// sweepMetrics is a sweep's best throughput over its complete steps.
func sweepMetrics(sw *results.Sweep) map[string]float64 {
	best := 0.0
	for _, s := range sw.Steps {
		if s.Complete && s.Result != nil {
			best = max(best, s.Result.Totals.Throughput)
		}
	}
	return map[string]float64{PeakRate: best}
}

// Matches reports whether metric is one that pattern names: the metric
// itself, or a kind of metric for every operation ("p99" names p99_read,
// p99_update).
func Matches(pattern, metric string) bool {
	return pattern == metric || strings.HasPrefix(metric, pattern+"_") && strings.HasPrefix(pattern, "p")
}
