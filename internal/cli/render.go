package cli

// render.go shows and writes the result model (internal/results) through
// the renderers (internal/report and its HTML page), which only the
// command layer imports.

import (
	"errors"
	"fmt"
	"io"

	"github.com/mongoload/mongoload/internal/analysis"
	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/dashboard"
	"github.com/mongoload/mongoload/internal/report"
	htmlreport "github.com/mongoload/mongoload/internal/report/html"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/sink"
)

// document is what a command renders (report.Document), with the
// compared files' contents for the comparison's charts.
type document struct {
	Result     *results.Result
	Sweep      *results.Sweep
	Comparison *results.Comparison
	AB         *results.AB
	Inputs     []analysis.CompareInput
}

func (d *document) report() *report.Document {
	return &report.Document{Result: d.Result, Sweep: d.Sweep, Comparison: d.Comparison, AB: d.AB}
}

// print writes the document on stdout, as text or Markdown.
func (d *document) print(o IO, markdown bool) error { return d.report().Print(o.Stdout, markdown) }

// contextLine is the server's context in one line (report.ContextLine).
func contextLine(c *results.ServerContext) string { return report.ContextLine(c) }

// writeExtras writes the HTML page and the CSV files that were asked for.
func writeExtras(o IO, doc *document, html, csvDir string) error {
	if html != "" {
		page := htmlreport.Page{Result: doc.Result, Sweep: doc.Sweep, Comparison: doc.Comparison, AB: doc.AB}
		for i, in := range doc.Inputs {
			page.Inputs = append(page.Inputs, htmlreport.Input{Label: doc.Comparison.Inputs[i].Label, Result: in.Result, Sweep: in.Sweep})
		}
		if err := htmlreport.WriteFile(html, page); err != nil {
			return withCode(ExitOutput, err)
		}
		fmt.Fprintf(o.Stderr, "HTML report written to %s\n", html)
	}
	if csvDir == "" {
		return nil
	}
	files, err := doc.report().WriteCSV(csvDir)
	if errors.Is(err, report.ErrNoCSV) {
		return withCode(ExitUsage, err)
	} else if err != nil {
		return withCode(ExitOutput, err)
	}
	fmt.Fprintf(o.Stderr, "CSV written to %s: %d files\n", csvDir, len(files))
	return nil
}

// finish writes a command's own file at out (write; said on stderr as
// what's) and the HTML and CSV asked for, and prints doc; the command's own
// error (runErr) wins over an output's, which wins over printing's.
func finish(o IO, doc *document, out, what string, write func(path string) error, html, csvDir string, markdown bool, runErr error) error {
	var outErr error
	if out != "" {
		if err := write(out); err != nil {
			outErr = withCode(ExitOutput, err)
		} else {
			fmt.Fprintf(o.Stderr, "%s written to %s\n", what, out)
		}
	}
	if err := writeExtras(o, doc, html, csvDir); err != nil && outErr == nil {
		outErr = err
	}
	perr := doc.print(o, markdown)
	for _, err := range []error{runErr, outErr} {
		if err != nil {
			return err
		}
	}
	return perr
}

// output is how a run reports: the live sink and the final report.
type output struct {
	format string
	ycsb   report.YCSBOptions
	status sink.YCSBStatusOptions
	// view is the operator's view shared by the command's measured phases
	// (the dashboard); nil for none (operator.go).
	view *dashboard.Server
}

// live is the sink that shows progress during the run, nil when quiet.
func (out output) live(o IO, quiet bool) []sink.Sink {
	switch {
	case quiet:
		return nil
	case out.format == "ycsb":
		return []sink.Sink{sink.NewYCSBStatusSink(o.Stderr, out.status)}
	}
	return []sink.Sink{sink.NewLiveSink(o.Stderr)}
}

// final writes the report at the end of the run.
func (out output) final(w io.Writer, res *results.Result) error {
	if out.format == "ycsb" {
		return report.WriteYCSB(w, res, out.ycsb)
	}
	return report.WriteConsole(w, res)
}

// ycsbHeader writes YCSB's header lines (report.WriteYCSBHeader) on stderr
// when the format is YCSB's, before anything is measured: the command
// line, with URIs and passwords redacted, and the client.
func (out output) ycsbHeader(o IO, command string, args []string) {
	if out.format != "ycsb" {
		return
	}
	_ = report.WriteYCSBHeader(o.Stderr, config.RedactArgs(append([]string{command}, args...)), Version)
}

// htmlPage writes the HTML report of a result or a sweep on w (the
// dashboard's download).
func htmlPage(w io.Writer, res *results.Result, sw *results.Sweep) error {
	return htmlreport.Write(w, htmlreport.Page{Result: res, Sweep: sw})
}
