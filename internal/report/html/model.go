package html

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/report"
	"github.com/mongoload/mongoload/internal/results"
)

// view is what the page template shows.
type view struct {
	Title    string
	Facts    [][2]string
	Summary  []string
	Sections []section
	Notes    []string
	Legend   []legendItem
	Charts   []chart
}

// section is a heading with charts (by ID, in a grid) and/or a table.
type section struct {
	Title  string
	Intro  string
	Charts []string
	Table  *table
}

type table struct {
	Head []string
	Rows [][]cell
}

type cell struct {
	Text  string
	Color string // background, for a verdict
	Left  bool   // a name, not a number
}

type legendItem struct{ Label, Color string }

// chart is one uPlot chart's data, read by charts.js.
type chart struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Kind   string `json:"kind"` // "time" (x in seconds), "steps" (x a step index), "bars" (grouped bars over categories)
	XLabel string `json:"xLabel"`
	YLabel string `json:"yLabel"`
	// Y2Label names the right axis, used by series with Axis 1.
	Y2Label string     `json:"y2Label,omitempty"`
	X       []float64  `json:"x"`
	XTicks  []string   `json:"xTicks,omitempty"` // labels at x = 0, 1, 2 ... (steps, categories)
	Series  []series   `json:"series"`
	Bands   []band     `json:"bands,omitempty"`
	Marks   []timeMark `json:"marks,omitempty"` // vertical lines with a label (step starts)
}

type series struct {
	Label  string     `json:"label"`
	Values []*float64 `json:"values"`
	Axis   int        `json:"axis"` // 0 left, 1 right
	Color  string     `json:"color"`
	Dash   bool       `json:"dash,omitempty"`
}

// band colours the x range [From, To] behind the plot, labelled.
type band struct {
	From  float64 `json:"from"`
	To    float64 `json:"to"`
	Label string  `json:"label"`
	Color string  `json:"color"`
}

type timeMark struct {
	X     float64 `json:"x"`
	Label string  `json:"label"`
}

// palette is the series colours, distinct in print and for most colour
// vision (Tableau 10).
var palette = []string{"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"}

func color(i int) string { return palette[i%len(palette)] }

// verdictColors colour the verdict bands and cells: blues and greens while
// the system scales, yellow and orange as it saturates, reds beyond.
var verdictColors = map[string]string{
	"Underutilised": "#9ecae1", "Linear scaling": "#74c476", "Efficient scaling": "#a1d99b", "Sweet spot": "#31a354",
	"Saturation begins": "#fdd049", "Max throughput": "#fd8d3c", "Diminishing returns": "#fdae6b", "Degraded": "#e6550d", "Oversaturated": "#de2d26",
}

var verdictOrder = []string{"Underutilised", "Linear scaling", "Efficient scaling", "Sweet spot", "Saturation begins", "Max throughput", "Diminishing returns", "Degraded", "Oversaturated"}

func model(p Page) (*view, error) {
	switch {
	case p.Sweep != nil:
		return sweepView(p.Sweep), nil
	case p.Comparison != nil:
		return comparisonView(p.Comparison, p.Inputs), nil
	case p.Result != nil:
		return resultView(p.Result), nil
	}
	return nil, fmt.Errorf("html report: nothing to show")
}

func f64(v float64) *float64 { return &v }

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
	timeSections(v, res, "", 0)
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
	x := make([]float64, len(res.Intervals))
	for i, iv := range res.Intervals {
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
			label = strings.TrimSpace(report.StepLabel(name)) + " (a step: part of its transaction)"
		}
		s := series{Label: label, Color: color(k), Values: make([]*float64, len(x))}
		for i, iv := range res.Intervals {
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
			for i, iv := range res.Intervals {
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
	s := res.Server
	if s == nil || len(s.Samples) == 0 {
		return nil
	}
	x := make([]float64, len(s.Samples))
	for i, sm := range s.Samples {
		x[i] = sm.T + offset
	}
	ops := chart{ID: prefix + "srvops", Title: "Server operations (ops/s)", Kind: "time", XLabel: "seconds", YLabel: "ops/s", X: x}
	cache := chart{ID: prefix + "srvcache", Title: "WiredTiger cache (% of its maximum)", Kind: "time", XLabel: "seconds", YLabel: "%", X: x}
	conns := chart{ID: prefix + "srvconn", Title: "Server connections", Kind: "time", XLabel: "seconds", YLabel: "connections", X: x}
	cpu := chart{ID: prefix + "srvcpu", Title: "Server CPU (cores busy)", Kind: "time", XLabel: "seconds", YLabel: "cores", X: x}
	so, used, dirty, cur, cores := newSeries("server", 0, len(x)), newSeries("used", 0, len(x)), newSeries("dirty", 1, len(x)), newSeries("current", 0, len(x)), newSeries("user+system", 0, len(x))
	any := map[string]bool{}
	for i, sm := range s.Samples {
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
		if c := sm.CPU; c != nil && sm.Dt > 0 && (c.UserSeconds != nil || c.SystemSeconds != nil) {
			var t float64
			for _, p := range []*float64{c.UserSeconds, c.SystemSeconds} {
				if p != nil {
					t += *p
				}
			}
			cores.Values[i], any["cpu"] = f64(t/sm.Dt), true
		}
	}
	var out []chart
	if any["ops"] {
		ops.Series = append(ops.Series, so)
		// The client's throughput at the sample times, for comparison.
		cl := newSeries("mongoload (client)", 1, len(x))
		cl.Dash = true
		for i, sm := range s.Samples {
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
	for _, iv := range res.Intervals {
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

// sweepView is a sweep: its verdict table, throughput and latency against
// the load with the verdict bands, by class, the client's CPU, and the
// whole sweep over time.
func sweepView(sw *results.Sweep) *view {
	v := &view{Title: "mongoload sweep: " + sw.Workload.Name, Notes: sw.Notes}
	if sw.Label != "" {
		v.Title += " (" + sw.Label + ")"
	}
	v.Facts = sweepFacts(sw)
	a := sw.Analysis
	if a == nil {
		v.Notes = append(v.Notes, "this sweep has not been analysed")
		return v
	}
	v.Summary = a.Summary
	unit := sw.Load.ColumnName()
	ticks := make([]string, len(a.Steps))
	x := make([]float64, len(a.Steps))
	var bands []band
	for i, f := range a.Steps {
		ticks[i], x[i] = trim(f.Level), float64(i)
		if c, ok := verdictColors[f.Verdict]; ok {
			bands = append(bands, band{From: float64(i) - 0.5, To: float64(i) + 0.5, Label: f.Verdict, Color: c})
		}
	}
	main := chart{ID: "sweep", Title: fmt.Sprintf("Throughput and latency by %s, coloured by verdict", unit), Kind: "steps", XLabel: unit, YLabel: "ops/s", Y2Label: "ms", X: x, XTicks: ticks, Bands: bands}
	tp, p99, avg := newSeries("throughput (ops/s)", 0, len(x)), newSeries("p99 (ms)", 2, len(x)), newSeries("avg (ms)", 1, len(x))
	p99.Axis, avg.Axis, avg.Dash = 1, 1, true
	cls := chart{ID: "classes", Title: "Latency by class (ms)", Kind: "steps", XLabel: unit, YLabel: "ms", X: x, XTicks: ticks}
	rp99, wp99, ravg, wavg := newSeries("read p99", 0, len(x)), newSeries("write p99", 2, len(x)), newSeries("read avg", 0, len(x)), newSeries("write avg", 2, len(x))
	ravg.Dash, wavg.Dash = true, true
	cpu := chart{ID: "cpu", Title: "CPU by step: mongoload (share of the client's cores) and the server (cores busy)", Kind: "steps", XLabel: unit, YLabel: "client %", Y2Label: "server cores", X: x, XTicks: ticks}
	ccpu, scpu := newSeries("client CPU (%)", 0, len(x)), newSeries("server CPU (cores)", 1, len(x))
	scpu.Axis = 1
	haveServerCPU := false
	for i, f := range a.Steps {
		tp.Values[i], p99.Values[i], avg.Values[i] = f64(f.Throughput), f64(f.Latency.P99), f64(f.Latency.Avg)
		if f.Read != nil {
			rp99.Values[i], ravg.Values[i] = f64(f.Read.Latency.P99), f64(f.Read.Latency.Avg)
		}
		if f.Write != nil {
			wp99.Values[i], wavg.Values[i] = f64(f.Write.Latency.P99), f64(f.Write.Latency.Avg)
		}
		if f.ClientCPU != nil {
			ccpu.Values[i] = f64(math.Round(1000**f.ClientCPU) / 10)
		}
		if f.Server != nil && f.Server.CPUCores != nil {
			scpu.Values[i], haveServerCPU = f64(*f.Server.CPUCores), true
		}
	}
	main.Series = []series{tp, p99, avg}
	cls.Series = []series{rp99, wp99, ravg, wavg}
	cpu.Series = []series{ccpu}
	if haveServerCPU {
		cpu.Series = append(cpu.Series, scpu)
	} else {
		cpu.Title, cpu.Y2Label = "mongoload's CPU by step (share of the client's cores; the server does not report its CPU)", ""
	}
	v.Charts = append(v.Charts, main, cls, cpu)
	for _, name := range verdictOrder {
		v.Legend = append(v.Legend, legendItem{Label: name, Color: verdictColors[name]})
	}
	v.Sections = append(v.Sections, section{Title: "Where it stops scaling", Charts: []string{"sweep"},
		Intro: "Throughput (left axis) and latency (right axis) at each step; the background colour is the step's verdict.", Table: sweepTable(sw)})
	v.Sections = append(v.Sections, section{Title: "By class and by CPU", Charts: []string{"classes", "cpu"},
		Intro: "Reads are find, findOne, aggregate and countDocuments; writes are the rest. A client near its CPU limit is itself the bottleneck."})
	timeline(v, sw)
	return v
}

func sweepFacts(sw *results.Sweep) [][2]string {
	levels := make([]string, len(sw.Load.Levels))
	for i, l := range sw.Load.Levels {
		levels[i] = trim(l)
	}
	f := [][2]string{{"workload", sw.Workload.Name + sourceOf(sw.Workload)}}
	if sw.Label != "" {
		f = append(f, [2]string{"label", sw.Label})
	}
	if sw.Cost != nil {
		f = append(f, [2]string{"cost", fmt.Sprintf("%g %s/month", sw.Cost.Monthly, sw.Cost.Currency)})
	}
	f = append(f,
		[2]string{"load", fmt.Sprintf("%s: %s", sw.Load.ColumnName(), strings.Join(levels, ", "))},
		[2]string{"steps", fmt.Sprintf("%gs measured after a %gs warm-up, %gs cooldown", sw.StepSeconds, sw.WarmupSeconds, sw.CooldownSeconds)},
		[2]string{"when", sw.StartedAt.Format(time.RFC3339) + " to " + sw.EndedAt.Format(time.RFC3339)},
		[2]string{"outcome", string(sw.Outcome)})
	if sw.Analysis != nil {
		f = append(f, [2]string{"limit", sw.Analysis.Limit.Text})
	}
	return f
}

func sweepTable(sw *results.Sweep) *table {
	t := &table{Head: []string{sw.Load.ColumnName(), "ops/s", "gain", "avg", "p50", "p95", "p99", "read p99", "write p99", "errors", "client CPU", "verdict"}}
	for _, f := range sw.Analysis.Steps {
		gain, cpu, rp, wp := "-", "-", "-", "-"
		if f.Gain != nil {
			gain = fmt.Sprintf("%.0f%%", 100**f.Gain)
		}
		if f.ClientCPU != nil {
			cpu = fmt.Sprintf("%.0f%%", 100**f.ClientCPU)
		}
		if f.Read != nil {
			rp = ms3(f.Read.Latency.P99)
		}
		if f.Write != nil {
			wp = ms3(f.Write.Latency.P99)
		}
		verdict := f.Verdict
		if !f.Complete {
			verdict = "interrupted: not judged"
		}
		l := f.Latency
		t.Rows = append(t.Rows, []cell{{Text: trim(f.Level)}, {Text: fixed1(f.Throughput)}, {Text: gain}, {Text: ms3(l.Avg)}, {Text: ms3(l.P50)}, {Text: ms3(l.P95)},
			{Text: ms3(l.P99)}, {Text: rp}, {Text: wp}, {Text: results.Thousands(f.Errors)}, {Text: cpu}, {Text: verdict, Left: true, Color: verdictColors[f.Verdict]}})
	}
	return t
}

// timeline is the whole sweep over time: every step's throughput and its
// worst operation's p99 per interval, each step marked where it starts.
func timeline(v *view, sw *results.Sweep) {
	tl := chart{ID: "timeline", Title: "The whole sweep over time", Kind: "time", XLabel: "seconds since the sweep began", YLabel: "ops/s", Y2Label: "ms"}
	tp, p99 := newSeries("throughput (ops/s)", 0, 0), newSeries("worst operation's p99 (ms)", 2, 0)
	p99.Axis = 1
	for _, st := range sw.Steps {
		r := st.Result
		if r == nil || len(r.Intervals) == 0 {
			continue
		}
		offset := r.StartedAt.Sub(sw.StartedAt).Seconds()
		tl.Marks = append(tl.Marks, timeMark{X: offset, Label: sw.Load.Describe(st.Level)})
		if len(tl.X) > 0 { // a gap between steps, not a line across the cooldown
			tl.X = append(tl.X, math.Round(offset*1000)/1000)
			tp.Values, p99.Values = append(tp.Values, nil), append(p99.Values, nil)
		}
		nominal := r.Intervals[0].Dt
		for _, iv := range r.Intervals {
			if iv.Dt < nominal/2 {
				continue // the step's last, partial interval: its rates would be noise
			}
			var sum, worst float64
			for _, op := range iv.Ops {
				if !op.InMix() {
					continue // a step is a part of its transaction's operation
				}
				sum += op.Rate
				if op.Count > 0 {
					worst = max(worst, op.P99)
				}
			}
			tl.X = append(tl.X, math.Round((offset+iv.T)*1000)/1000)
			tp.Values = append(tp.Values, f64(math.Round(sum*10)/10))
			p99.Values = append(p99.Values, f64(worst))
		}
	}
	if len(tl.X) == 0 {
		return
	}
	// uPlot needs x in order; steps follow each other, but sort to be sure.
	idx := make([]int, len(tl.X))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return tl.X[idx[a]] < tl.X[idx[b]] })
	x, a, b := make([]float64, len(idx)), make([]*float64, len(idx)), make([]*float64, len(idx))
	for i, k := range idx {
		x[i], a[i], b[i] = tl.X[k], tp.Values[k], p99.Values[k]
	}
	tl.X, tp.Values, p99.Values = x, a, b
	tl.Series = []series{tp, p99}
	v.Charts = append(v.Charts, tl)
	v.Sections = append(v.Sections, section{Title: "Over time", Charts: []string{"timeline"},
		Intro: "Every measured interval of every step (warm-ups and cooldowns are the gaps); the marks are where each step's measurement began."})
	if srv := serverTimeline(sw, tl.Marks); len(srv) > 0 {
		sec := section{Title: "Server over time", Intro: "The server's own telemetry (serverStatus) during every step, under the client's figures above; - where it does not report a figure."}
		for _, c := range srv {
			v.Charts = append(v.Charts, c)
			sec.Charts = append(sec.Charts, c.ID)
		}
		v.Sections = append(v.Sections, sec)
	}
}

// serverTimeline joins every step's server series into one timeline, with
// gaps between steps: the same charts as a single run's.
func serverTimeline(sw *results.Sweep, marks []timeMark) []chart {
	joined := &results.Result{Server: &results.Server{}}
	var offsets []float64
	for _, st := range sw.Steps {
		r := st.Result
		if r == nil || r.Server == nil || len(r.Server.Samples) == 0 {
			continue
		}
		offset := r.StartedAt.Sub(sw.StartedAt).Seconds()
		for _, sm := range r.Server.Samples {
			sm.T = math.Round((sm.T+offset)*1000) / 1000
			joined.Server.Samples = append(joined.Server.Samples, sm)
			offsets = append(offsets, offset)
		}
		for _, iv := range r.Intervals {
			iv.T += offset
			joined.Intervals = append(joined.Intervals, iv)
		}
	}
	if len(joined.Server.Samples) == 0 {
		return nil
	}
	charts := serverCharts(joined, "sweep-", 0)
	for i := range charts {
		c := &charts[i]
		c.XLabel, c.Marks = "seconds since the sweep began", marks
		// Break the lines between steps: a null point where a step begins.
		var x []float64
		vals := make([][]*float64, len(c.Series))
		for k := range c.X {
			if k > 0 && offsets[k] != offsets[k-1] {
				x = append(x, offsets[k])
				for j := range vals {
					vals[j] = append(vals[j], nil)
				}
			}
			x = append(x, c.X[k])
			for j := range vals {
				vals[j] = append(vals[j], c.Series[j].Values[k])
			}
		}
		c.X = x
		for j := range vals {
			c.Series[j].Values = vals[j]
		}
	}
	return charts
}

// comparisonView is a comparison: its table, the objectives, and grouped
// bars of throughput, latency and cost; sweeps also overlaid by level.
func comparisonView(c *results.Comparison, inputs []Input) *view {
	v := &view{Title: "mongoload comparison", Notes: c.Notes}
	labels := make([]string, len(c.Inputs))
	for i, in := range c.Inputs {
		labels[i] = in.Label
	}
	v.Facts = [][2]string{{"baseline", c.Inputs[c.Baseline].Label}, {"compared", strings.Join(labels, ", ")}, {"latencies", c.At}}
	t := &table{Head: []string{"metric"}}
	for i, l := range labels {
		t.Head = append(t.Head, l)
		if i != c.Baseline {
			t.Head = append(t.Head, "change")
		}
	}
	for _, r := range c.Rows {
		row := []cell{{Text: r.Metric, Left: true}}
		for i, val := range r.Values {
			row = append(row, cell{Text: report.FormatValue(val, r.Unit)})
			if i != c.Baseline {
				row = append(row, changeCell(r.Change[i], r.HigherIsBetter))
			}
		}
		t.Rows = append(t.Rows, row)
	}
	v.Sections = append(v.Sections, section{Title: "Side by side", Intro: "Change is against the baseline; green is better, red worse.", Table: t})
	if len(c.Objectives) > 0 {
		ot := &table{Head: []string{"objective"}}
		for i, l := range labels {
			if i != c.Baseline {
				ot.Head = append(ot.Head, l)
			}
		}
		for _, o := range c.Objectives {
			row := []cell{{Text: o.Text, Left: true}}
			for i, p := range o.Pass {
				if i == c.Baseline {
					continue
				}
				switch {
				case p == nil:
					row = append(row, cell{Text: "-"})
				case *p:
					row = append(row, cell{Text: "yes", Color: "#a1d99b"})
				default:
					row = append(row, cell{Text: "no", Color: "#fc9272"})
				}
			}
			ot.Rows = append(ot.Rows, row)
		}
		var meet []string
		for i, in := range c.Inputs {
			if i != c.Baseline && in.MeetsAll != nil && *in.MeetsAll {
				meet = append(meet, in.Label)
			}
		}
		intro := "No option meets every objective."
		if len(meet) > 0 {
			intro = "Meets every objective: " + strings.Join(meet, ", ") + "."
		}
		v.Sections = append(v.Sections, section{Title: "Objectives", Intro: intro, Table: ot})
	}
	var ids []string
	add := func(ch chart) {
		if len(ch.Series) > 0 {
			v.Charts = append(v.Charts, ch)
			ids = append(ids, ch.ID)
		}
	}
	add(bars("cmp-throughput", "Max throughput (ops/s)", "ops/s", []string{"max throughput"}, labels, rowsByKey(c, "throughput")))
	add(bars("cmp-latency", "Latency "+shortAt(c)+" (ms)", "ms", []string{"avg", "p95", "p99"}, labels, rowsByKey(c, "avg", "p95", "p99")))
	if cls := rowsByKey(c, "read.avg", "read.p95", "write.avg", "write.p95"); hasAny(cls) {
		add(bars("cmp-classes", "Reads and writes "+shortAt(c)+" (ms)", "ms", []string{"read avg", "read p95", "write avg", "write p95"}, labels, cls))
	}
	var typeKeys, typeNames []string
	for _, r := range c.Rows {
		if strings.HasSuffix(r.Key, ".avg") && !strings.HasPrefix(r.Key, "read.") && !strings.HasPrefix(r.Key, "write.") {
			typeKeys, typeNames = append(typeKeys, r.Key), append(typeNames, strings.TrimSuffix(r.Key, ".avg"))
		}
	}
	if len(typeKeys) > 0 {
		add(bars("cmp-types", "Average latency per operation type "+shortAt(c)+" (ms)", "ms", typeNames, labels, rowsByKey(c, typeKeys...)))
	}
	if r := rowsByKey(c, "throughput-per-cost"); hasAny(r) {
		add(bars("cmp-cost", "Throughput per cost ("+c.Rows[indexOf(c, "throughput-per-cost")].Unit+")", "ops/s", []string{"throughput per cost"}, labels, r))
	}
	v.Sections = append(v.Sections, section{Title: "Charts", Charts: ids})
	if sweeps := sweepOverlay(inputs); len(sweeps) > 0 {
		sec := section{Title: "Sweeps by load level", Intro: "Each sweep's throughput and p99 at the levels it ran."}
		for _, ch := range sweeps {
			v.Charts = append(v.Charts, ch)
			sec.Charts = append(sec.Charts, ch.ID)
		}
		v.Sections = append(v.Sections, sec)
	}
	return v
}

func shortAt(c *results.Comparison) string {
	if i := strings.Index(c.At, ","); i > 0 {
		return c.At[:i]
	}
	return c.At
}

func changeCell(p *float64, higher bool) cell {
	if p == nil {
		return cell{Text: "-"}
	}
	text := fmt.Sprintf("%+.1f%%", *p)
	if math.Abs(*p) < 0.05 {
		return cell{Text: "0%"}
	}
	better := (*p > 0) == higher
	if math.Abs(*p) < 2 { // within noise: no colour
		return cell{Text: text}
	}
	if better {
		return cell{Text: text, Color: "#c7e9c0"}
	}
	return cell{Text: text, Color: "#fcbba1"}
}

func rowsByKey(c *results.Comparison, keys ...string) []*results.ComparisonRow {
	out := make([]*results.ComparisonRow, len(keys))
	for i, k := range keys {
		if j := indexOf(c, k); j >= 0 {
			out[i] = &c.Rows[j]
		}
	}
	return out
}

func indexOf(c *results.Comparison, key string) int {
	for i := range c.Rows {
		if c.Rows[i].Key == key {
			return i
		}
	}
	return -1
}

func hasAny(rows []*results.ComparisonRow) bool {
	for _, r := range rows {
		if r != nil {
			for _, v := range r.Values {
				if v != nil {
					return true
				}
			}
		}
	}
	return false
}

// bars lays out grouped bars: one group per category (rows[k]), one bar per
// input. uPlot's series share their x values, so each input's bars sit at
// their own offsets within the groups and are null elsewhere.
func bars(id, title, ylabel string, categories, inputs []string, rows []*results.ComparisonRow) chart {
	ch := chart{ID: id, Title: title, Kind: "bars", XLabel: "", YLabel: ylabel, XTicks: categories}
	if !hasAny(rows) {
		return ch
	}
	n := len(inputs)
	w := 0.8 / float64(n)
	for k := range categories {
		for s := range inputs {
			ch.X = append(ch.X, math.Round((float64(k)+(float64(s)-float64(n-1)/2)*w)*1e6)/1e6)
		}
	}
	for s, label := range inputs {
		se := series{Label: label, Color: color(s), Values: make([]*float64, len(ch.X))}
		for k, r := range rows {
			if r != nil && r.Values[s] != nil {
				se.Values[k*n+s] = f64(*r.Values[s])
			}
		}
		ch.Series = append(ch.Series, se)
	}
	return ch
}

// sweepOverlay draws every compared sweep's throughput and p99 by level,
// when the sweeps step the same parameter.
func sweepOverlay(inputs []Input) []chart {
	var sweeps []Input
	param := ""
	for _, in := range inputs {
		if in.Sweep == nil || in.Sweep.Analysis == nil {
			continue
		}
		if param != "" && in.Sweep.Load.Parameter != param {
			return nil
		}
		param = in.Sweep.Load.Parameter
		sweeps = append(sweeps, in)
	}
	if len(sweeps) < 2 {
		return nil
	}
	var levels []float64
	for _, in := range sweeps {
		for _, f := range in.Sweep.Analysis.Steps {
			if !containsF(levels, f.Level) {
				levels = append(levels, f.Level)
			}
		}
	}
	sort.Float64s(levels)
	x := make([]float64, len(levels))
	ticks := make([]string, len(levels))
	for i, l := range levels {
		x[i], ticks[i] = float64(i), trim(l)
	}
	unit := sweeps[0].Sweep.Load.ColumnName()
	tp := chart{ID: "cmp-sweep-tput", Title: "Throughput by " + unit + " (ops/s)", Kind: "steps", XLabel: unit, YLabel: "ops/s", X: x, XTicks: ticks}
	lat := chart{ID: "cmp-sweep-p99", Title: "p99 latency by " + unit + " (ms)", Kind: "steps", XLabel: unit, YLabel: "ms", X: x, XTicks: ticks}
	for s, in := range sweeps {
		a, b := newSeries(in.Label, s, len(x)), newSeries(in.Label, s, len(x))
		for _, f := range in.Sweep.Analysis.Steps {
			if !f.Complete {
				continue
			}
			i := sort.SearchFloat64s(levels, f.Level)
			a.Values[i], b.Values[i] = f64(f.Throughput), f64(f.Latency.P99)
		}
		tp.Series, lat.Series = append(tp.Series, a), append(lat.Series, b)
	}
	return []chart{tp, lat}
}

func containsF(list []float64, v float64) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func trim(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return results.Thousands(int64(f))
	}
	return fmt.Sprintf("%g", f)
}

func fixed1(f float64) string {
	s := fmt.Sprintf("%.1f", f)
	i := strings.IndexByte(s, '.')
	var n int64
	fmt.Sscan(s[:i], &n)
	return results.Thousands(n) + s[i:]
}

func ms3(f float64) string { return fmt.Sprintf("%.3f", f) }
