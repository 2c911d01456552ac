package cli

import (
	"context"
	"fmt"

	"github.com/mongoload/mongoload/internal/report"
	htmlreport "github.com/mongoload/mongoload/internal/report/html"
	"github.com/mongoload/mongoload/internal/results"
)

// document is what the report command renders: one results file, one
// sweep, or a comparison of several.
type document struct {
	Result     *results.Result
	Sweep      *results.Sweep
	Comparison *results.Comparison
	// Inputs are the compared files' contents, for the comparison's charts.
	Inputs []htmlreport.Input
}

// reportCommand renders results, sweep or comparison files as an HTML page
// (--html), CSV files (--csv) or Markdown tables (--markdown); without any
// of them it prints the console report.
func reportCommand(_ context.Context, args []string, o IO) error {
	fs := newFlags("report", "RESULTS.json|SWEEP.json | compare FILE... [flags]", o)
	html := fs.String("html", "", "write a self-contained HTML report with charts to this file")
	csvDir := fs.String("csv", "", "write the tables and interval series as CSV files into this directory")
	markdown := fs.Bool("markdown", false, "print the tables as Markdown")
	cf := addCompareFlags(fs)
	if err := parse(fs, args, 1<<20); err != nil {
		return err
	}
	if *html != "" {
		if err := results.CheckWritable(*html, fs.Args()...); err != nil {
			return withCode(ExitOutput, err)
		}
	}
	var doc *document
	switch {
	case fs.NArg() == 0:
		return withCode(ExitUsage, fmt.Errorf("name a results or sweep file, or: compare FILE FILE..."))
	case fs.Arg(0) == "compare":
		c, inputs, err := cf.compare(fs.Args()[1:])
		if err != nil {
			return err
		}
		doc = &document{Comparison: c, Inputs: inputs}
	case fs.NArg() > 1:
		return withCode(ExitUsage, fmt.Errorf("one file at a time (or: mongoload report compare %s ...)", fs.Arg(0)))
	default:
		res, sw, err := results.ReadAny(fs.Arg(0))
		if err != nil {
			return withCode(ExitUnreadable, err)
		}
		if sw != nil {
			if err := ensureAnalysis(sw); err != nil {
				return err
			}
		}
		doc = &document{Result: res, Sweep: sw}
	}
	if err := writeExtras(o, doc, *html, *csvDir); err != nil {
		return err
	}
	if *html != "" || *csvDir != "" {
		if !*markdown {
			return nil
		}
	}
	return printDocument(o, doc, *markdown)
}

// printDocument prints doc as text or Markdown on stdout.
func printDocument(o IO, doc *document, markdown bool) error {
	switch {
	case doc.Comparison != nil && markdown:
		return report.WriteComparisonMarkdown(o.Stdout, doc.Comparison)
	case doc.Comparison != nil:
		return report.WriteComparisonConsole(o.Stdout, doc.Comparison)
	case doc.Sweep != nil && markdown:
		return report.WriteSweepMarkdown(o.Stdout, doc.Sweep)
	case doc.Sweep != nil:
		return report.WriteSweepConsole(o.Stdout, doc.Sweep)
	case markdown:
		return report.WriteResultMarkdown(o.Stdout, doc.Result)
	}
	return report.WriteConsole(o.Stdout, doc.Result)
}

// writeExtras writes the HTML page and the CSV files that were asked for.
func writeExtras(o IO, doc *document, html, csvDir string) error {
	if html != "" {
		page := htmlreport.Page{Result: doc.Result, Sweep: doc.Sweep, Comparison: doc.Comparison, Inputs: doc.Inputs}
		if err := htmlreport.WriteFile(html, page); err != nil {
			return withCode(ExitOutput, err)
		}
		fmt.Fprintf(o.Stderr, "HTML report written to %s\n", html)
	}
	if csvDir == "" {
		return nil
	}
	var files []string
	var err error
	switch {
	case doc.Comparison != nil:
		files, err = report.WriteComparisonCSV(csvDir, doc.Comparison)
	case doc.Sweep != nil:
		files, err = report.WriteSweepCSV(csvDir, doc.Sweep)
	default:
		files, err = report.WriteResultCSV(csvDir, doc.Result)
	}
	if err != nil {
		return withCode(ExitOutput, err)
	}
	fmt.Fprintf(o.Stderr, "CSV written to %s: %d files\n", csvDir, len(files))
	return nil
}

// ensureAnalysis analyses a sweep file that has none (one written by a
// sweep that was killed outright), with the default rules.
func ensureAnalysis(sw *results.Sweep) error {
	if sw.Analysis != nil {
		return nil
	}
	a, err := analyseDefault(sw)
	if err != nil {
		return withCode(ExitInvalid, err)
	}
	sw.Analysis = a
	return nil
}
