package report

import (
	"errors"
	"io"

	"github.com/mongoload/mongoload/internal/results"
)

// Document is what a command shows: one results file, a sweep (findmax's
// is a sweep of its probes), a comparison of several files, or an A/B file.
// One of its fields is set; Result when none of the others is.
type Document struct {
	Result     *results.Result
	Sweep      *results.Sweep
	Comparison *results.Comparison
	AB         *results.AB
}

// ErrNoCSV: an A/B file's tables are its two sides', which compare writes.
var ErrNoCSV = errors.New("--csv: an A/B file has no CSV form; compare it (mongoload compare ab.json --csv DIR) for its two sides' tables")

// Print writes d as console text, or as Markdown tables.
func (d *Document) Print(w io.Writer, markdown bool) error {
	switch {
	case d.AB != nil: // one text: its table reads the same in Markdown's code blocks
		return WriteABConsole(w, d.AB)
	case d.Comparison != nil && markdown:
		return WriteComparisonMarkdown(w, d.Comparison)
	case d.Comparison != nil:
		return WriteComparisonConsole(w, d.Comparison)
	case d.Sweep != nil && d.Sweep.FindMax != nil && markdown:
		return WriteFindMaxMarkdown(w, d.Sweep.FindMax)
	case d.Sweep != nil && d.Sweep.FindMax != nil:
		return WriteFindMaxConsole(w, d.Sweep.FindMax)
	case d.Sweep != nil && markdown:
		return WriteSweepMarkdown(w, d.Sweep)
	case d.Sweep != nil:
		return WriteSweepConsole(w, d.Sweep)
	case markdown:
		return WriteResultMarkdown(w, d.Result)
	}
	return WriteConsole(w, d.Result)
}

// WriteCSV writes d's tables (and a result's interval series) as CSV files
// into dir and returns their paths.
func (d *Document) WriteCSV(dir string) ([]string, error) {
	switch {
	case d.AB != nil:
		return nil, ErrNoCSV
	case d.Comparison != nil:
		return WriteComparisonCSV(dir, d.Comparison)
	case d.Sweep != nil && d.Sweep.FindMax != nil:
		return WriteFindMaxCSV(dir, d.Sweep.FindMax)
	case d.Sweep != nil:
		return WriteSweepCSV(dir, d.Sweep)
	}
	return WriteResultCSV(dir, d.Result)
}
