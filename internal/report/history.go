package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/results"
)

// HistoryFormats are the ways `mongoload history` writes a history.
var HistoryFormats = []string{"text", "csv", "json", "markdown", "html"}

// WriteHistory writes h in format (one of HistoryFormats).
func WriteHistory(w io.Writer, h *results.History, format string) error {
	switch format {
	case "csv":
		return historyCSV(w, h)
	case "json":
		b, err := json.MarshalIndent(h, "", "  ")
		if err != nil {
			return err
		}
		_, err = w.Write(append(b, '\n'))
		return err
	case "markdown":
		return historyMarkdown(w, h)
	case "html":
		return historyHTML(w, h)
	}
	return historyText(w, h)
}

// historyText is the console's: per workload and metric, its change
// points in a sentence each, or that there is none.
func historyText(w io.Writer, h *results.History) error {
	var b strings.Builder
	fmt.Fprintf(&b, "history of %s: %s\n", h.Store, methodText(h.Method))
	for _, wl := range h.Workloads {
		fmt.Fprintf(&b, "\n%s: %s\n", wl.Name, runsText(wl.Runs))
		for _, s := range wl.Series {
			fmt.Fprintf(&b, "  %s (%s, %s is better): ", s.Metric, s.Unit, better(s))
			switch {
			case s.TooFew:
				fmt.Fprintf(&b, "too few results (%d) to find a change\n", s.Measured())
				continue
			case len(s.ChangePoints) == 0:
				b.WriteString("no change point\n")
				continue
			}
			fmt.Fprintf(&b, "%d change point(s)\n", len(s.ChangePoints))
			for _, cp := range s.ChangePoints {
				fmt.Fprintf(&b, "    %s\n", changePointText(cp, s.Unit))
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func methodText(m results.HistoryMethod) string {
	return fmt.Sprintf("change points by %s, p ≤ %g (%d permutations, seed %d); a regression is %s worse or more",
		m.Name, m.PValue, m.Permutations, m.Seed, percent(100*m.Threshold))
}

func runsText(runs []results.HistoryRun) string {
	first, last := runs[0], runs[len(runs)-1]
	s := fmt.Sprintf("%d result(s), %s to %s", len(runs), runName(first), runName(last))
	digests, hosts, versions := distinct(runs, func(r results.HistoryRun) string { return r.Digest }),
		distinct(runs, func(r results.HistoryRun) string { return r.Host }), distinct(runs, func(r results.HistoryRun) string { return r.Version })
	if len(digests) > 0 { // none: a CSV's runs
		s += "; workload digest " + strings.Join(digests, ", ")
	}
	if len(digests) > 1 {
		s += " (its definition changed: a change point may be the workload's, not the build's)"
	}
	if len(hosts) > 0 {
		s += "; host " + strings.Join(hosts, ", ")
	}
	if len(versions) > 0 {
		s += "; target " + strings.Join(versions, ", ")
	}
	return s
}

func runName(r results.HistoryRun) string {
	t := r.Time.UTC().Format("2006-01-02 15:04 UTC")
	if r.Label == "" {
		return t
	}
	return r.Label + " (" + t + ")"
}

// changeText is one change point in a sentence: where, how much, how sure.
func changePointText(cp results.ChangePoint, unit string) string {
	where := cp.Label
	if where == "" {
		where = cp.Time.UTC().Format(time.RFC3339)
	}
	s := fmt.Sprintf("at %s: %s (%s → %s %s), p = %.3g", where, signedPercent(cp.Change), figure(cp.MeanBefore), figure(cp.MeanAfter), unit, cp.PValue)
	if cp.Regression {
		s += ", a regression"
	}
	return s
}

func better(s results.HistorySeries) string {
	if s.HigherIsBetter {
		return "higher"
	}
	return "lower"
}

func signedPercent(p float64) string { return fmt.Sprintf("%+.1f%%", p) }
func percent(p float64) string       { return strconv.FormatFloat(p, 'f', -1, 64) + "%" }

// num is a figure with as many digits as it needs: 1998.6, 0.412.
func figure(v float64) string {
	switch a := max(v, -v); {
	case a >= 1e12: // 1.7e+308, not three hundred digits
		return strconv.FormatFloat(v, 'g', 4, 64)
	case a >= 100:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case a >= 1:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

func distinct(runs []results.HistoryRun, of func(results.HistoryRun) string) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range runs {
		if v := of(r); v != "" && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// historyCSV writes a row per run: time, label, then a column per metric,
// the layout Apache Otava's CSV source reads (time_column: time,
// attributes: [label]). With several workloads a workload column follows
// the label: give Otava one workload's rows (--workload).
func historyCSV(w io.Writer, h *results.History) error {
	cw := csv.NewWriter(w)
	var metrics []string
	for _, wl := range h.Workloads {
		for _, s := range wl.Series {
			if !contains(metrics, s.Metric) {
				metrics = append(metrics, s.Metric)
			}
		}
	}
	several := len(h.Workloads) > 1
	head := []string{"time", "label"}
	if several {
		head = append(head, "workload")
	}
	if err := cw.Write(append(head, metrics...)); err != nil {
		return err
	}
	for _, wl := range h.Workloads {
		for i, r := range wl.Runs {
			row := []string{r.Time.UTC().Format(time.RFC3339Nano), r.Label}
			if several {
				row = append(row, wl.Name)
			}
			for _, m := range metrics {
				cell := ""
				for _, s := range wl.Series {
					if s.Metric == m && s.Values[i] != nil {
						cell = strconv.FormatFloat(*s.Values[i], 'f', -1, 64)
					}
				}
				row = append(row, cell)
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// historyMarkdown is a table per workload: each metric, its latest value
// and its change points.
func historyMarkdown(w io.Writer, h *results.History) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# History of %s\n\n%s.\n", h.Store, methodText(h.Method))
	for _, wl := range h.Workloads {
		fmt.Fprintf(&b, "\n## %s\n\n%s.\n\n| metric | unit | better | latest | change points |\n|---|---|---|--:|---|\n", wl.Name, runsText(wl.Runs))
		for _, s := range wl.Series {
			latest := ""
			for i := len(s.Values) - 1; i >= 0; i-- {
				if s.Values[i] != nil {
					latest = figure(*s.Values[i])
					break
				}
			}
			var cps []string
			for _, cp := range s.ChangePoints {
				cps = append(cps, changePointText(cp, s.Unit))
			}
			text := strings.Join(cps, "; ")
			switch {
			case s.TooFew:
				text = "too few results"
			case len(cps) == 0:
				text = "no change point"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", s.Metric, s.Unit, better(s), latest, text)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
