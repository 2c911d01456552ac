package html

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/mongoload/mongoload/internal/report"
	"github.com/mongoload/mongoload/internal/results"
)

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
		meet := c.MeetingAll()
		intro := "No option meets every objective."
		if len(meet) > 0 {
			intro = "Meets every objective: " + strings.Join(meet, ", ") + "."
		}
		v.Sections = append(v.Sections, section{Title: "Objectives", Intro: intro, Table: ot})
	}
	if c.Users != nil {
		v.Sections = append(v.Sections, stagesSection(c))
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

// stagesSection is compare --users' growth-stage table.
func stagesSection(c *results.Comparison) section {
	p := c.Users
	cur := p.Currency
	t := &table{Head: []string{"users", "choice", "capacity (users)", strings.TrimSpace("monthly " + cur), strings.TrimSpace("per 1,000 users " + cur), "reliable", "note"}}
	for _, st := range p.Stages {
		if st.Input == nil {
			t.Rows = append(t.Rows, []cell{{Text: trim(st.Users)}, {Text: "none", Left: true, Color: "#fc9272"}, {Text: "-"}, {Text: "-"}, {Text: "-"}, {Text: "-"}, {Text: st.Note, Left: true}})
			continue
		}
		rel := results.ReliableText(st.Reliable)
		if rel == "" {
			rel = "-"
		}
		t.Rows = append(t.Rows, []cell{{Text: trim(st.Users)}, {Text: st.Choice, Left: true}, {Text: trim(math.Round(st.Capacity))},
			{Text: report.FormatValue(st.Monthly, cur)}, {Text: report.FormatValue(st.PerThousand, cur)}, {Text: rel}, {Text: st.Note, Left: true}})
	}
	intro := fmt.Sprintf("%s users are served by the baseline %s's %s (%.1f ops/s), so each input's capacity is in users; each stage gets the cheapest input carrying it with %.0f%% headroom.",
		trim(p.Users), c.Inputs[c.Baseline].Label, p.Basis, p.BaseThroughput, 100*p.Headroom)
	if p.ReliableWhy != "" {
		intro += " " + p.ReliableWhy
	}
	return section{Title: "Growth stages", Intro: intro, Table: t}
}
