package html

import (
	"fmt"
	"strings"

	"github.com/mongoload/mongoload/internal/report"
	"github.com/mongoload/mongoload/internal/results"
)

// scanColor marks a shape whose plan scans the whole collection.
const scanColor = "#f8d4d0"

// operatorSections adds what the operator's view recorded (docs/insights.md):
// the server's context among the facts, the slow operations by shape with
// their plans, and the collections before and after. A result without them
// gets nothing.
func operatorSections(v *view, res *results.Result) {
	if c := res.Context; c != nil {
		v.Facts = append(v.Facts, [2]string{"server", report.ContextLine(c)})
		if len(c.Absent) > 0 {
			v.Facts = append(v.Facts, [2]string{"not reported", strings.Join(c.Absent, ", ")})
		}
	}
	if line, verdicts := report.CPUSummary(res); line != "" && res.Context != nil { // older files: their facts as they were
		v.Facts = append(v.Facts, [2]string{"cpu", strings.Join(append([]string{line}, verdicts...), "; ")})
	}
	if s := res.Slow; s != nil && (len(s.Shapes) > 0 || s.Other != nil) {
		t := &table{Head: []string{"collection", "type", "shape", "count", "errors", "p50", "p99", "max", "plan", "index", "keys/ret", "docs/ret"}}
		row := func(sh *results.SlowShape) {
			cells := []cell{{Text: sh.Namespace, Left: true}, {Text: sh.Type, Left: true}, {Text: sh.Shape, Left: true},
				{Text: results.Thousands(sh.Count)}, {Text: results.Thousands(sh.Errors)}, {Text: ms3(sh.Latency.P50)}, {Text: ms3(sh.Latency.P99)}, {Text: ms3(sh.Latency.Max)}}
			e := sh.Explain
			switch {
			case e == nil:
				cells = append(cells, cell{Left: true}, cell{Left: true}, cell{}, cell{})
			case e.Error != "":
				cells = append(cells, cell{Text: e.Failure(), Left: true}, cell{Left: true}, cell{}, cell{})
			default:
				plan := cell{Text: e.Plan, Left: true}
				if e.CollScan {
					plan.Text += " (collection scan)"
					plan.Color = scanColor
				}
				cells = append(cells, plan, cell{Text: e.Index, Left: true}, cell{Text: per(e.KeysPerReturned, e.KeysExamined)}, cell{Text: per(e.DocsPerReturned, e.DocsExamined)})
			}
			t.Rows = append(t.Rows, cells)
		}
		for i := range s.Shapes {
			row(&s.Shapes[i])
		}
		if s.Other != nil {
			row(s.Other)
		}
		intro := fmt.Sprintf("%s operations took at least %s ms, grouped by shape (values replaced by their types), slowest first; plans from explain (executionStats) after the run.",
			results.Thousands(s.Operations), trim(s.ThresholdMs))
		v.Sections = append(v.Sections, section{Title: "Slow operations", Intro: intro, Table: t})
	}
	if len(res.Collections) > 0 {
		t := &table{Head: []string{"collection", "documents before", "after", "data before", "after", "storage before", "after", "indexes before", "after", "avg document"}}
		for _, c := range res.Collections {
			b, a := c.Before, c.After
			get := func(s *results.CollStats, f func(*results.CollStats) *int64) *int64 {
				if s == nil {
					return nil
				}
				return f(s)
			}
			count := func(s *results.CollStats) *int64 { return s.Count }
			data := func(s *results.CollStats) *int64 { return s.DataSize }
			storage := func(s *results.CollStats) *int64 { return s.StorageSize }
			index := func(s *results.CollStats) *int64 { return s.TotalIndexSize }
			avg := func(s *results.CollStats) *int64 { return s.AvgObjSize }
			t.Rows = append(t.Rows, []cell{{Text: c.Namespace, Left: true},
				{Text: optInt(get(b, count), results.Thousands)}, {Text: optInt(get(a, count), results.Thousands)},
				{Text: optInt(get(b, data), sizeText)}, {Text: optInt(get(a, data), sizeText)},
				{Text: optInt(get(b, storage), sizeText)}, {Text: optInt(get(a, storage), sizeText)},
				{Text: optInt(get(b, index), sizeText)}, {Text: optInt(get(a, index), sizeText)},
				{Text: optInt(get(a, avg), sizeText)}})
		}
		v.Sections = append(v.Sections, section{Title: "Collections", Intro: "collStats before and after the measured phase.", Table: t})
	}
}

func per(p *float64, total int64) string {
	if p != nil {
		return fixed1(*p)
	}
	return results.Thousands(total) + "/0"
}

func optInt(p *int64, f func(int64) string) string {
	if p == nil {
		return "-"
	}
	return f(*p)
}

// sizeText formats bytes in binary units.
func sizeText(n int64) string {
	units := []string{"B", "KB", "MB", "GB", "TB"}
	f, i := float64(n), 0
	for f >= 1024 && i < len(units)-1 {
		f /= 1024
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%d B", n)
	}
	return fmt.Sprintf("%.1f %s", f, units[i])
}
