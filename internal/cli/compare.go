package cli

import (
	"context"

	"github.com/spf13/pflag"

	"github.com/mongoload/mongoload/internal/analysis"
	"github.com/mongoload/mongoload/internal/results"
)

// compareFlags are the flags of a comparison, shared by compare and
// report compare.
type compareFlags struct {
	baseline   *string
	objectives *[]string
	users      *string
	growth     *string
	headroom   *string
}

func addCompareFlags(fs *pflag.FlagSet) *compareFlags {
	return &compareFlags{
		baseline:   fs.String("baseline", "", "the input the others are compared with: its label or file (default the first)"),
		objectives: fs.StringArray("objective", nil, `an objective against the baseline, such as "throughput>=2x" or "read.p95<=+5%" (repeatable)`),
		users:      fs.String("users", "", "the users the baseline serves: every input's capacity in users, and cost per 1,000 users"),
		growth:     fs.String("growth", "", "with --users: growth stages in users, such as 50000,90000; each gets the cheapest input that carries it"),
		headroom:   fs.String("headroom", "0%", "with --users: the spare capacity a stage needs, such as 20%"),
	}
}

// compare reads the files and compares them.
func (f *compareFlags) compare(files []string) (*results.Comparison, []analysis.CompareInput, error) {
	return analysis.CompareFiles(analysis.CompareRequest{Files: files, Baseline: *f.baseline, Objectives: *f.objectives,
		Users: *f.users, Growth: *f.growth, Headroom: *f.headroom}, func(path string) (*results.File, error) {
		f, err := results.ReadMeasured(path)
		return f, withCode(readExit(err), err)
	})
}

// compareCommand prints several results or sweeps side by side.
func compareCommand(_ context.Context, args []string, o IO) error {
	fs := newFlags("compare", "BASE.json OTHER.json... [flags]", o)
	cf := addCompareFlags(fs)
	markdown := fs.Bool("markdown", false, "print the table as Markdown")
	html := fs.String("html", "", "also write the comparison as a self-contained HTML report with charts")
	csvDir := fs.String("csv", "", "also write the comparison table as CSV into this directory")
	if err := parse(fs, args, 1<<20); err != nil {
		return err
	}
	if *html != "" {
		if err := results.CheckWritable(*html, fs.Args()...); err != nil {
			return withCode(ExitOutput, err)
		}
	}
	c, inputs, err := cf.compare(fs.Args())
	if err != nil {
		return err
	}
	doc := &document{Comparison: c, Inputs: inputs}
	if err := writeExtras(o, doc, *html, *csvDir); err != nil {
		return err
	}
	return doc.print(o, *markdown)
}

// analyseDefault analyses a sweep with the default rules.
func analyseDefault(sw *results.Sweep) (*results.SweepAnalysis, error) {
	return analysis.AnalyseSweep(sw, analysis.DefaultSweepOptions())
}
