package report

import (
	"fmt"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
)

// DocsHead is the header of the documents table: what the server did with
// documents, per operation.
var DocsHead = []string{"operation", "returned", "matched", "modified", "upserted", "deleted", "inserted", "empty"}

// DocsRows is the documents table of res, one row per operation that
// counted any and a TOTAL row; nil when no operation did. Empty is the
// share of reads, updates and deletes that found nothing.
func DocsRows(res *results.Result) [][]string {
	var rows [][]string
	row := func(name string, d *metrics.Docs) {
		empty := "-"
		if d.Shaped > 0 {
			empty = fmt.Sprintf("%.1f%%", 100*d.EmptyShare())
		}
		rows = append(rows, []string{name, results.Thousands(d.Returned), results.Thousands(d.Matched), results.Thousands(d.Modified),
			results.Thousands(d.Upserted), results.Thousands(d.Deleted), results.Thousands(d.Inserted), empty})
	}
	for i := range res.Operations {
		if d := res.Operations[i].Docs; d != nil {
			row(res.Operations[i].Name, d)
		}
	}
	if rows == nil {
		return nil
	}
	if d := res.Totals.Docs; d != nil {
		row("TOTAL", d)
	}
	return rows
}
