package html

import (
	"fmt"

	"github.com/mongoload/mongoload/internal/results"
)

// watcherCharts draws each watcher's delivery lag over the run (p50, p99
// and max of each interval, ms) and its events per second: a consumer
// falling behind is a lag that climbs to the end, a pause a spike that
// falls back.
func watcherCharts(v *view, res *results.Result) {
	if len(res.Watchers) == 0 || len(res.Intervals) == 0 {
		return
	}
	ivs := results.Charted(res.Intervals)
	x := make([]float64, len(ivs))
	for i, iv := range ivs {
		x[i] = iv.T
	}
	sec := section{Title: "Watchers over time", Intro: "Each watcher's delivery lag per reporting interval (ms, from the commit to receipt), and the events its streams received per second."}
	for k, w := range res.Watchers {
		lag := chart{ID: fmt.Sprintf("watchlag%d", k), Title: w.Name + ": delivery lag (ms)", Kind: "time", XLabel: "seconds", YLabel: "ms", X: x}
		rate := chart{ID: fmt.Sprintf("watchrate%d", k), Title: w.Name + ": events per second", Kind: "time", XLabel: "seconds", YLabel: "events/s", X: x}
		p50, p99, mx := series{Label: "p50", Color: color(0)}, series{Label: "p99", Color: color(1)}, series{Label: "max", Color: color(2)}
		ev := series{Label: "events/s", Color: color(0)}
		for _, iv := range ivs {
			var a, b, c, e *float64
			for _, wi := range iv.Watchers {
				if wi.Name != w.Name {
					continue
				}
				if iv.Dt > 0 {
					e = f64(float64(wi.Events) / iv.Dt)
				}
				if wi.Events > 0 {
					a, b, c = f64(wi.LagP50), f64(wi.LagP99), f64(wi.LagMax)
				}
			}
			p50.Values, p99.Values, mx.Values, ev.Values = append(p50.Values, a), append(p99.Values, b), append(mx.Values, c), append(ev.Values, e)
		}
		lag.Series, rate.Series = []series{p50, p99, mx}, []series{ev}
		v.Charts = append(v.Charts, lag, rate)
		sec.Charts = append(sec.Charts, lag.ID, rate.ID)
	}
	v.Sections = append(v.Sections, sec)
}
