package html

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/report"
	"github.com/mongoload/mongoload/internal/results"
)

// resultView is one run: its facts, the operations table, throughput and
// latency over time per operation, and the server's series under them.
func resultView(res *results.Result) *view {
	v := &view{Title: "mongoload results: " + res.Workload.Name, Notes: res.Notes}
	v.Facts = resultFacts(res)
	t := &table{Head: []string{"operation", "type", "count", "ops/s", "avg", "p50", "p95", "p99", "p99.9", "max", "errors"}}
	opRow := func(name string, op *results.Operation) {
		l := op.Latency
		t.Rows = append(t.Rows, []cell{{Text: name, Left: true}, {Text: op.Type, Left: true}, {Text: results.Thousands(op.Count)}, {Text: fixed1(op.Throughput)},
			{Text: ms3(l.Avg)}, {Text: ms3(l.P50)}, {Text: ms3(l.P95)}, {Text: ms3(l.P99)}, {Text: ms3(l.P999)}, {Text: ms3(l.Max)}, {Text: results.Thousands(op.Errors)}})
	}
	for _, op := range res.MixOperations() {
		opRow(op.Name, op)
	}
	tl := res.Totals.Latency
	t.Rows = append(t.Rows, []cell{{Text: "TOTAL", Left: true}, {Text: "", Left: true}, {Text: results.Thousands(res.Totals.Operations)}, {Text: fixed1(res.Totals.Throughput)},
		{Text: ms3(tl.Avg)}, {Text: ms3(tl.P50)}, {Text: ms3(tl.P95)}, {Text: ms3(tl.P99)}, {Text: ms3(tl.P999)}, {Text: ms3(tl.Max)}, {Text: results.Thousands(res.Totals.Errors)}})
	intro := "Latencies in milliseconds, from HDR histograms over the measured phase."
	if steps := res.StepOperations(); len(steps) > 0 {
		for _, op := range steps {
			opRow(report.StepLabel(op.Name), op)
		}
		intro += " " + report.StepLegend + "."
	}
	v.Sections = append(v.Sections, section{Title: "Operations", Intro: intro, Table: t})
	if rows := report.DocsRows(res); rows != nil {
		dt := &table{Head: report.DocsHead}
		for _, r := range rows {
			cells := []cell{{Text: r[0], Left: true}}
			for _, c := range r[1:] {
				cells = append(cells, cell{Text: c})
			}
			dt.Rows = append(dt.Rows, cells)
		}
		v.Sections = append(v.Sections, section{Title: "Documents", Intro: "What the server did with documents; empty is the share of reads, updates and deletes that found none.", Table: dt})
	}
	if rows := report.WatcherRows(res); rows != nil {
		wt := &table{Head: report.WatcherHead}
		for _, r := range rows {
			cells := []cell{{Text: r[0], Left: true}, {Text: r[1], Left: true}}
			for _, c := range r[2:] {
				cells = append(cells, cell{Text: c})
			}
			wt.Rows = append(wt.Rows, cells)
		}
		v.Sections = append(v.Sections, section{Title: "Watchers", Intro: "Change-stream consumers: the events their streams received and each event's delivery lag in milliseconds, from the commit (or the document's lag field) to receipt. They are no operations: in no total, throughput or SLO above.", Table: wt})
	}
	timeSections(v, res, "", 0)
	watcherCharts(v, res)
	operatorSections(v, res) // context, slow shapes, collections (operator.go)
	return v
}

func resultFacts(res *results.Result) [][2]string {
	f := [][2]string{{"workload", res.Workload.Name + sourceOf(res.Workload)}}
	if res.Label != "" {
		f = append(f, [2]string{"label", res.Label})
	}
	f = append(f, [2]string{"load", loadText(res.Load)})
	f = append(f, [2]string{"measured", fmt.Sprintf("%s to %s (%.1fs, after a %.1fs warm-up)", res.StartedAt.Format(time.RFC3339), res.EndedAt.Format(time.RFC3339), res.DurationSeconds, res.WarmupSeconds)})
	f = append(f, [2]string{"outcome", string(res.Outcome)})
	f = append(f, [2]string{"latency", report.ClockText(res.Load)})
	if d := res.Schedule; d != nil && d.Dropped > 0 {
		f = append(f, [2]string{"dropped", report.DropText(d)})
	}
	if c := res.Client; c != nil {
		f = append(f, [2]string{"client", fmt.Sprintf("%s, %.1f µs CPU per operation, %s", c.CPUText(), c.CPUPerOpMicros, report.MemoryText(c))})
	}
	if res.ConfigLine != "" {
		f = append(f, [2]string{"config", res.ConfigLine})
	}
	return f
}

func sourceOf(w results.Workload) string {
	if w.Source == "" {
		return ""
	}
	return " (" + w.Source + ")"
}

func loadText(l results.LoadModel) string {
	switch l.Type {
	case results.Open:
		return fmt.Sprintf("open loop at %s ops/s", trim(l.Rate))
	case results.Sessions:
		return fmt.Sprintf("%d sessions, think time %s", l.Sessions, l.ThinkTime)
	}
	return fmt.Sprintf("closed loop, %d workers", l.Concurrency)
}

// timeSections adds the time-series charts of a result: throughput per
// operation, latency percentiles per operation, then the server's series.
// prefix keeps chart IDs unique; offset shifts time (a sweep's timeline).
func timeSections(v *view, res *results.Result, prefix string, offset float64) {
	if len(res.Intervals) == 0 {
		v.Notes = append(v.Notes, "this results file has no interval series: no charts over time")
		return
	}
	ivs := results.Charted(res.Intervals)
	x := make([]float64, len(ivs))
	for i, iv := range ivs {
		x[i] = iv.T + offset
	}
	names := opNames(res)
	tput := chart{ID: prefix + "throughput", Title: "Throughput per operation (ops/s)", Kind: "time", XLabel: "seconds", YLabel: "ops/s", X: x}
	steps := map[string]bool{}
	for _, op := range res.StepOperations() {
		steps[op.Name] = true
	}
	for k, name := range names {
		label := name
		if steps[name] {
			label = strings.TrimSpace(report.StepLabel(name)) + " (a part of another operation, not in the totals)"
		}
		s := series{Label: label, Color: color(k), Values: make([]*float64, len(x))}
		for i, iv := range ivs {
			if op := opIn(iv, name); op != nil {
				s.Values[i] = f64(op.Rate)
			}
		}
		tput.Series = append(tput.Series, s)
	}
	v.Charts = append(v.Charts, tput)
	sec := section{Title: "Over time", Intro: "One point per reporting interval. Latency percentiles are each interval's own, in milliseconds.", Charts: []string{tput.ID}}
	for k, name := range names {
		c := chart{ID: fmt.Sprintf("%slat%d", prefix, k), Title: name + ": latency (ms)", Kind: "time", XLabel: "seconds", YLabel: "ms", X: x}
		for j, p := range []string{"p50", "p95", "p99"} {
			s := series{Label: p, Color: color(j), Values: make([]*float64, len(x))}
			for i, iv := range ivs {
				if op := opIn(iv, name); op != nil && op.Count > 0 {
					s.Values[i] = f64(map[string]float64{"p50": op.P50, "p95": op.P95, "p99": op.P99}[p])
				}
			}
			c.Series = append(c.Series, s)
		}
		v.Charts = append(v.Charts, c)
		sec.Charts = append(sec.Charts, c.ID)
	}
	v.Sections = append(v.Sections, sec)
	if srv := serverCharts(res, prefix, offset); len(srv) > 0 {
		ss := section{Title: "Server", Intro: "The server's own telemetry (serverStatus) over the same time, beside the client's throughput."}
		for _, c := range srv {
			v.Charts = append(v.Charts, c)
			ss.Charts = append(ss.Charts, c.ID)
		}
		v.Sections = append(v.Sections, ss)
	}
}

func opNames(res *results.Result) []string {
	names := make([]string, len(res.Operations))
	for i, op := range res.Operations {
		names[i] = op.Name
	}
	if len(names) == 0 && len(res.Intervals) > 0 {
		for _, op := range res.Intervals[0].Ops {
			names = append(names, op.Name)
		}
	}
	return names
}

func opIn(iv results.IntervalSummary, name string) *results.OpSummary {
	for i := range iv.Ops {
		if iv.Ops[i].Name == name {
			return &iv.Ops[i]
		}
	}
	return nil
}

// serverCharts are the server's series: operations per second beside the
// client's, cache use, connections and CPU, those the server reported.
func serverCharts(res *results.Result, prefix string, offset float64) []chart {
	if res.Server == nil {
		return nil
	}
	samples := res.Server.ChartSamples()
	if len(samples) == 0 {
		return nil
	}
	x := make([]float64, len(samples))
	for i, sm := range samples {
		x[i] = sm.T + offset
	}
	ops := chart{ID: prefix + "srvops", Title: "Server operations (ops/s)", Kind: "time", XLabel: "seconds", YLabel: "ops/s", X: x}
	cache := chart{ID: prefix + "srvcache", Title: "WiredTiger cache (% of its maximum)", Kind: "time", XLabel: "seconds", YLabel: "%", X: x}
	conns := chart{ID: prefix + "srvconn", Title: "Server connections", Kind: "time", XLabel: "seconds", YLabel: "connections", X: x}
	cpu := chart{ID: prefix + "srvcpu", Title: "Server CPU (cores busy)", Kind: "time", XLabel: "seconds", YLabel: "cores", X: x}
	so, used, dirty, cur, cores := newSeries("server", 0, len(x)), newSeries("used", 0, len(x)), newSeries("dirty", 1, len(x)), newSeries("current", 0, len(x)), newSeries("user+system", 0, len(x))
	any := map[string]bool{}
	for i, sm := range samples {
		if o := sm.Opcounters; o != nil && sm.Dt > 0 {
			var n int64
			for _, p := range []*int64{o.Insert, o.Query, o.Update, o.Delete, o.Getmore, o.Command} {
				if p != nil {
					n += *p
				}
			}
			so.Values[i], any["ops"] = f64(float64(n)/sm.Dt), true
		}
		if c := sm.Cache; c != nil && c.MaxBytes != nil && *c.MaxBytes > 0 {
			if c.BytesInUse != nil {
				used.Values[i], any["cache"] = f64(100*float64(*c.BytesInUse)/float64(*c.MaxBytes)), true
			}
			if c.DirtyBytes != nil {
				dirty.Values[i], any["cache"] = f64(100*float64(*c.DirtyBytes)/float64(*c.MaxBytes)), true
			}
		}
		if c := sm.Connections; c != nil && c.Current != nil {
			cur.Values[i], any["conn"] = f64(float64(*c.Current)), true
		}
		if t, ok := sm.CPU.Seconds(); ok && sm.Dt > 0 {
			cores.Values[i], any["cpu"] = f64(t/sm.Dt), true
		}
	}
	var out []chart
	if any["ops"] {
		ops.Series = append(ops.Series, so)
		// The client's throughput at the sample times, for comparison.
		cl := newSeries("mongoload (client)", 1, len(x))
		cl.Dash = true
		for i, sm := range samples {
			cl.Values[i] = clientRateAt(res, sm.T)
		}
		ops.Series = append(ops.Series, cl)
		out = append(out, ops)
	}
	if any["cache"] {
		cache.Series = append(cache.Series, used, dirty)
		out = append(out, cache)
	}
	if any["conn"] {
		conns.Series = append(conns.Series, cur)
		out = append(out, conns)
	}
	if any["cpu"] {
		cpu.Series = append(cpu.Series, cores)
		out = append(out, cpu)
	}
	return out
}

func newSeries(label string, c, n int) series {
	return series{Label: label, Color: color(c), Values: make([]*float64, n)}
}

// clientRateAt is the client's total throughput in the interval that
// contains t.
func clientRateAt(res *results.Result, t float64) *float64 {
	for _, iv := range results.Charted(res.Intervals) {
		if t <= iv.T+1e-9 && t > iv.T-iv.Dt-1e-9 {
			var sum float64
			for _, op := range iv.Ops {
				if op.InMix() { // a step is a part of its transaction's operation
					sum += op.Rate
				}
			}
			return f64(math.Round(sum*10) / 10)
		}
	}
	return nil
}
