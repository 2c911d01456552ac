package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mongoload/mongoload/internal/results"
)

// CSVProbes is a rate search's probe table, one row per probe in the
// order they ran.
const CSVProbes = "probes.csv"

// WriteFindMaxConsole writes a rate search for people: a header, the probe
// table (rate, achieved, percentiles, dropped, verdict), the conclusion in
// one sentence, the calibration if any, and notes.
func WriteFindMaxConsole(w io.Writer, f *results.FindMax) error {
	ew := &errWriter{w: w}
	writeHead(ew, "", f.FileHead, findMaxHeader(f), false)
	ew.printf("\nprobes:\n")
	probeTable(f).write(ew, "")
	ew.printf("\n%s\n", f.Summary)
	if f.ReliableWhy != "" {
		ew.printf("%s\n", f.ReliableWhy)
	}
	writeCalibration(ew, f.Calibration, false)
	writeNotes(ew, f.Notes, false)
	return ew.err
}

// WriteFindMaxMarkdown writes the same as WriteFindMaxConsole as Markdown.
func WriteFindMaxMarkdown(w io.Writer, f *results.FindMax) error {
	ew := &errWriter{w: w}
	writeHead(ew, "Highest rate meeting the SLO", f.FileHead, findMaxHeader(f), true)
	ew.printf("\n### Probes\n\n")
	probeTable(f).markdown(ew)
	ew.printf("\n%s\n", mdEscape(f.Summary))
	if f.ReliableWhy != "" {
		ew.printf("\n**%s**\n", mdEscape(f.ReliableWhy))
	}
	writeCalibration(ew, f.Calibration, true)
	writeNotes(ew, f.Notes, true)
	return ew.err
}

// WriteFindMaxCSV writes the probe table and the search's steps as a rate
// sweep's CSV files (WriteSweepCSV) into dir.
func WriteFindMaxCSV(dir string, f *results.FindMax) ([]string, error) {
	files, err := WriteSweepCSV(dir, f.Sweep())
	if err != nil {
		return files, err
	}
	t := probeTable(f)
	path := dir + "/" + CSVProbes
	return append(files, path), writeCSV(path, t.rows)
}

// CalibrationLine is a calibration's finding in one sentence.
func CalibrationLine(c *results.Calibration) string {
	s := fmt.Sprintf("calibration: the server's CPU sits at %.0f%% of its %d cores (target %.0f%%, read from %s) at %s, %.1f ops/s",
		100*c.Measured, c.Cores, 100*c.Target, c.Source, (results.SweepLoad{Parameter: c.Parameter}).Describe(c.Level), c.Throughput)
	if c.Note != "" {
		s += "; " + c.Note
	}
	return s
}

func findMaxHeader(f *results.FindMax) [][2]string {
	start := results.Target(f.Start) + " ops/s (--start)"
	if f.StartFrom == "estimate" && f.Estimate != nil {
		start = fmt.Sprintf("%s ops/s, half of a closed-loop run's %.1f ops/s", results.Target(f.Start), f.Estimate.Totals.Throughput)
	}
	h := [][2]string{
		{"findmax", fmt.Sprintf("%s %s, %s", f.Tool.Name, f.Tool.Version, results.FindMaxSchema)},
		{"workload", workloadText(f.Workload)},
		{"slo", fmt.Sprintf("%s, and no drop, no error, at least %g%% of the rate achieved", strings.Join(f.SLO, ", "), 100*f.AchievedShare)},
		{"search", searchText(f, start)},
		{"probes", fmt.Sprintf("%gs measured after a %gs warm-up each, %gs cooldown", f.StepSeconds, f.WarmupSeconds, f.CooldownSeconds)},
	}
	if iv := f.MaxRateInterval; iv != nil {
		h = append(h, [2]string{"answer", results.IntervalText(iv)})
	}
	if f.Outcome != results.Completed {
		h = append(h, [2]string{"outcome", string(f.Outcome) + ": " + f.Reason})
	}
	if r := results.ReliableText(f.Reliable); r != "" {
		h = append(h, [2]string{"reliable", r + " (other cpu: the host's CPU used by neither mongoload nor the server, per probe)"})
	}
	return h
}

// searchText says how the search went about it.
func searchText(f *results.FindMax, start string) string {
	s := fmt.Sprintf("from %s, x%g up, bisecting to %g%%", start, f.Factor, 100*f.Precision)
	if f.MaxRateInterval != nil {
		return s + ", each latency objective judged as the share of operations over its bound with its confidence interval (a probe whose interval straddles it judged by its point estimate), a rate answered only once shown to pass"
	}
	return s + ", the highest passing rate repeated for twice as long"
}

// ProbeVerdict is a probe's verdict for its table's last column: PASS, the
// failed terms, inconclusive (extended) or not judged, with its latency
// objectives as proportions when it was judged so.
func ProbeVerdict(p results.Probe) string {
	verdict := "PASS"
	switch {
	case p.Terms == nil && len(p.Tails) > 0:
		verdict = "inconclusive, extended"
	case p.Terms == nil && p.Interrupted != "":
		verdict = "not judged: the server stopped answering (" + p.Interrupted + ")"
	case p.Terms == nil:
		verdict = "not judged (cut short)"
	case !p.Pass:
		var failed []string
		word := "FAIL "
		for _, tm := range p.Terms {
			if !tm.Pass {
				failed = append(failed, tm.Text+" ("+tm.Shown+")")
			}
		}
		verdict = word + strings.Join(failed, ", ")
	}
	if p.Terms != nil && p.Inconclusive {
		verdict += " (inconclusive: judged by its point estimate)"
	}
	if len(p.Tails) > 0 {
		verdict += ": " + results.TailsText(p.Tails)
	}
	return verdict
}

// probeTable is one row per probe in the order they ran.
func probeTable(f *results.FindMax) *table {
	t := &table{left: 2, textLast: true}
	t.add("#", "stage", "rate", "achieved", "p50 ms", "p95 ms", "p99 ms", "p99.9 ms", "dropped", "errors", "other cpu", "verdict")
	for i, p := range f.Probes {
		r := p.Result.Totals
		verdict := ProbeVerdict(p)
		drops := p.Result.Dropped()
		t.add(strconv.Itoa(i+1), p.Stage, results.Target(p.Rate), fmt.Sprintf("%.1f", r.Throughput),
			ms3(r.Latency.P50), ms3(r.Latency.P95), ms3(r.Latency.P99), ms3(r.Latency.P999),
			strconv.FormatInt(drops, 10), strconv.FormatInt(r.Errors, 10), results.NoiseText(p.Result), verdict)
	}
	return t
}

func ms3(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }
