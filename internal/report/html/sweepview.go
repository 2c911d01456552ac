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
	v.Summary = append(append([]string{}, a.Summary...), sw.ReliableWhy)
	if sw.ReliableWhy == "" {
		v.Summary = v.Summary[:len(v.Summary)-1]
	}
	if r := results.ReliableText(sw.Reliable); r != "" && sw.FindMax == nil {
		v.Facts = append(v.Facts, [2]string{"reliable", r})
	}
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
	if sw.USL != nil {
		uslSection(v, sw.USL)
	}
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
	if c := sw.Calibration; c != nil {
		f = append(f, [2]string{"calibration", report.CalibrationLine(c)})
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
		for _, iv := range results.Charted(r.Intervals) {
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
		for _, sm := range r.Server.ChartSamples() {
			sm.T = math.Round((sm.T+offset)*1000) / 1000
			joined.Server.Samples = append(joined.Server.Samples, sm)
			offsets = append(offsets, offset)
		}
		for _, iv := range results.Charted(r.Intervals) {
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
