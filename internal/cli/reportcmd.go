package cli

import (
	"context"
	"fmt"

	"github.com/mongoload/mongoload/internal/results"
)

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
		f, err := results.ReadMeasured(fs.Arg(0))
		if err != nil {
			return withCode(readExit(err), err)
		}
		if f.Sweep != nil {
			if err := ensureAnalysis(f.Sweep); err != nil {
				return err
			}
		}
		doc = &document{Result: f.Result, Sweep: f.Sweep, AB: f.AB}
	}
	if err := writeExtras(o, doc, *html, *csvDir); err != nil {
		return err
	}
	if *html != "" || *csvDir != "" {
		if !*markdown {
			return nil
		}
	}
	return doc.print(o, *markdown)
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
