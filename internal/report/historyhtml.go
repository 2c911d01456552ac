package report

import (
	"fmt"
	"html"
	"io"
	"math"
	"strings"

	"github.com/mongoload/mongoload/internal/results"
)

// The charts' geometry, in SVG units.
const (
	chartW, chartH     = 760.0, 220.0
	padL, padR         = 70.0, 20.0
	padT, padB         = 20.0, 40.0
	historyPointRadius = 3.0
)

// historyHTML writes one self-contained page (no script, no fetch): per
// workload a chart per metric, its values over the runs in time order,
// each change point a dashed line before the first run after it, the
// segments' means drawn across them.
func historyHTML(w io.Writer, h *results.History) error {
	var b strings.Builder
	esc := html.EscapeString
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>mongoload history: %s</title>\n", esc(h.Store))
	b.WriteString("<style>body{font-family:sans-serif;margin:2em;color:#222}svg{background:#fafafa;border:1px solid #ddd}" +
		".reg{color:#b00020}.cp{stroke:#b00020;stroke-dasharray:4 3}.mean{stroke:#888;stroke-width:1.5}.line{fill:none;stroke:#1565c0;stroke-width:1.5}" +
		".pt{fill:#1565c0}text{font-size:11px;fill:#444}</style></head><body>\n")
	fmt.Fprintf(&b, "<h1>History of %s</h1>\n<p>%s.</p>\n", esc(h.Store), esc(methodText(h.Method)))
	for _, wl := range h.Workloads {
		fmt.Fprintf(&b, "<h2>%s</h2>\n<p>%s.</p>\n", esc(wl.Name), esc(runsText(wl.Runs)))
		for _, s := range wl.Series {
			fmt.Fprintf(&b, "<h3>%s (%s, %s is better)</h3>\n", esc(s.Metric), esc(s.Unit), better(s))
			if len(s.ChangePoints) == 0 {
				b.WriteString("<p>No change point.</p>\n")
			}
			for _, cp := range s.ChangePoints {
				class := ""
				if cp.Regression {
					class = ` class="reg"`
				}
				fmt.Fprintf(&b, "<p%s>Change point %s.</p>\n", class, esc(changePointText(cp, s.Unit)))
			}
			chartSVG(&b, wl.Runs, s)
		}
	}
	b.WriteString("</body></html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// chartSVG draws one series.
func chartSVG(b *strings.Builder, runs []results.HistoryRun, s results.HistorySeries) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range s.Values {
		if v != nil {
			lo, hi = min(lo, *v), max(hi, *v)
		}
	}
	if math.IsInf(lo, 1) {
		return
	}
	if hi == lo {
		hi, lo = hi+1, lo-1
	}
	floor := lo
	lo -= (hi - lo) * 0.1
	hi += (hi - lo) * 0.1
	if floor >= 0 {
		lo = max(lo, 0) // no negative latency or throughput on the axis
	}
	n := max(len(runs)-1, 1)
	x := func(i float64) float64 { return padL + i*(chartW-padL-padR)/float64(n) }
	y := func(v float64) float64 { return padT + (hi-v)*(chartH-padT-padB)/(hi-lo) }
	fmt.Fprintf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n", chartW, chartH, chartW, chartH)
	for _, v := range []float64{lo, (lo + hi) / 2, hi} {
		fmt.Fprintf(b, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", padL-6, y(v)+4, figure(v))
	}
	step := max(1, len(runs)/8)
	for i := 0; i < len(runs); i += step {
		name := runs[i].Label
		if name == "" {
			name = runs[i].Time.UTC().Format("01-02 15:04")
		}
		fmt.Fprintf(b, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%s</text>\n", x(float64(i)), chartH-padB+16, html.EscapeString(name))
	}
	// The segments' means, between the change points.
	starts := []int{0}
	for _, cp := range s.ChangePoints {
		starts = append(starts, cp.Run)
		fmt.Fprintf(b, "<line class=\"cp\" x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\"><title>%s</title></line>\n",
			x(float64(cp.Run)-0.5), padT, x(float64(cp.Run)-0.5), chartH-padB, html.EscapeString(changePointText(cp, s.Unit)))
	}
	starts = append(starts, len(runs))
	for i := 0; i+1 < len(starts); i++ {
		sum, k := 0.0, 0
		for j := starts[i]; j < starts[i+1]; j++ {
			if s.Values[j] != nil {
				sum, k = sum+*s.Values[j], k+1
			}
		}
		if k > 0 {
			m := sum / float64(k)
			fmt.Fprintf(b, "<line class=\"mean\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x(float64(starts[i])), y(m), x(float64(starts[i+1]-1)), y(m))
		}
	}
	var pts []string
	for i, v := range s.Values {
		if v != nil {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(float64(i)), y(*v)))
		}
	}
	fmt.Fprintf(b, "<polyline class=\"line\" points=\"%s\"/>\n", strings.Join(pts, " "))
	for i, v := range s.Values {
		if v != nil {
			fmt.Fprintf(b, "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.0f\"><title>%s: %s %s</title></circle>\n",
				x(float64(i)), y(*v), historyPointRadius, html.EscapeString(runName(runs[i])), figure(*v), html.EscapeString(s.Unit))
		}
	}
	b.WriteString("</svg>\n")
}
