package html

import (
	"fmt"
	"math"
	"strings"

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
	Points bool       `json:"points,omitempty"` // points only, no line (measured levels under a fitted curve)
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
	case p.AB != nil:
		return abView(p.AB), nil
	case p.Sweep != nil && p.Sweep.FindMax != nil:
		return findMaxView(p.Sweep), nil
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
