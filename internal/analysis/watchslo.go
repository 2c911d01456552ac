package analysis

import (
	"fmt"
	"math"
	"strings"

	"github.com/mongoload/mongoload/internal/results"
)

// watchPrefix starts an objective on the watchers' delivery lag:
// "watch.lag.p99<=500ms", or "NAME:watch.lag.max<2s" for one watcher.
// Watchers are no operations, so no other objective counts them.
const watchPrefix = "watch.lag."

// watchMetrics are the lag figures a results file keeps per watcher.
var watchMetrics = []string{"p50", "p95", "p99", "p99.9", "max", "avg"}

func parseWatchObjective(o Objective, value string) (Objective, error) {
	o.Watch = true
	o.Metric = strings.TrimPrefix(o.Metric, watchPrefix)
	known := false
	for _, m := range watchMetrics {
		known = known || m == o.Metric
	}
	if !known {
		return o, fmt.Errorf("objective %q: the watchers' lag has %s, not %q; write for example watch.lag.p99<=500ms", o.Text, strings.Join(watchMetrics, ", "), o.Metric)
	}
	if o.Metric != "max" && o.Metric != "avg" {
		fmt.Sscanf(o.Metric[1:], "%g", &o.Pct)
	}
	v, err := parseLatency(value)
	if err != nil {
		return o, fmt.Errorf("objective %q: %q is not a valid value: %v", o.Text, value, err)
	}
	o.Value = v
	return o, o.checkRange()
}

// checkWatch measures a lag objective: the scoped watcher's figure, or
// with no scope the worst watcher's (each watcher is its own consumer:
// one that keeps up does not make up for one that does not). A watcher
// that received nothing has no lag to meet an objective with.
func checkWatch(res *results.Result, v Verdict) Verdict {
	var worst float64
	found := false
	for _, w := range res.Watchers {
		if v.Objective.Scope != "" && w.Name != v.Objective.Scope {
			continue
		}
		found = true
		worst = max(worst, watchFigure(w, v.Objective.Metric))
	}
	if !found {
		v.Missing = true
		return v
	}
	v.Measured = worst
	v.Pass = compare(v.Measured, v.Objective.Op, v.Objective.Value)
	return v
}

func watchFigure(w results.Watcher, metric string) float64 {
	if w.Events == 0 {
		return math.Inf(1)
	}
	l := w.Lag
	switch metric {
	case "p50":
		return l.P50
	case "p95":
		return l.P95
	case "p99":
		return l.P99
	case "p99.9":
		return l.P999
	case "max":
		return l.Max
	}
	return l.Mean
}
