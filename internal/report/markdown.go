package report

import (
	"io"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/results"
)

// WriteResultMarkdown writes a result's operations table and facts as
// Markdown, ready for a blog post or a ticket.
func WriteResultMarkdown(w io.Writer, res *results.Result) error {
	ew := &errWriter{w: w}
	title := "Results: " + res.Workload.Name
	if res.Label != "" {
		title += " (" + res.Label + ")"
	}
	ew.printf("## %s\n\n", mdEscape(title))
	ew.printf("- **load**: %s\n", mdEscape(describeLoad(res.Load)))
	ew.printf("- **measured**: %s to %s (%s, after a %s warm-up)\n", res.StartedAt.Format(time.RFC3339), res.EndedAt.Format(time.RFC3339),
		seconds(res.DurationSeconds), seconds(res.WarmupSeconds))
	ew.printf("- **outcome**: %s\n", res.Outcome)
	ew.printf("- **latency**: %s\n", mdEscape(ClockText(res.Load)))
	if d := res.Schedule; d != nil && d.Dropped > 0 {
		ew.printf("- **dropped**: %s\n", mdEscape(DropText(d)))
	}
	if c := res.Client; c != nil {
		ew.printf("- **client**: %s, %.1f µs CPU per operation, %s\n", c.CPUText(), c.CPUPerOpMicros, MemoryText(c))
	}
	if cost := results.CostOf(res); cost != nil {
		ew.printf("- **cost**: %s %s/month\n", costText(cost.Monthly), cost.Currency)
	}
	ew.printf("\nLatencies in ms.\n\n")
	t := &table{left: 1}
	t.add("operation", "count", "ops/s", "avg", "p50", "p95", "p99", "p99.9", "max", "errors")
	opRow := func(name string, op *results.Operation) {
		l := op.Latency
		t.add(name, results.Thousands(op.Count), results.Rate(op.Throughput), msFixed(l.Avg), msFixed(l.P50), msFixed(l.P95), msFixed(l.P99), msFixed(l.P999), msFixed(l.Max), results.Thousands(op.Errors))
	}
	for _, op := range res.MixOperations() {
		opRow(op.Name, op)
	}
	l := res.Totals.Latency
	t.add("**TOTAL**", results.Thousands(res.Totals.Operations), results.Rate(res.Totals.Throughput), msFixed(l.Avg), msFixed(l.P50), msFixed(l.P95), msFixed(l.P99), msFixed(l.P999), msFixed(l.Max), results.Thousands(res.Totals.Errors))
	steps := res.StepOperations()
	for _, op := range steps {
		opRow(strings.TrimSpace(StepLabel(op.Name)), op)
	}
	t.markdown(ew)
	if len(steps) > 0 {
		ew.printf("\n%s\n", mdEscape(StepLegend))
	}
	if rows := DocsRows(res); rows != nil {
		ew.printf("\nDocuments (what the server did with them; empty: reads, updates, deletes that found none).\n\n")
		dt := &table{left: 1}
		dt.add(DocsHead...)
		for _, r := range rows {
			dt.add(r...)
		}
		dt.markdown(ew)
	}
	if rows := WatcherRows(res); rows != nil {
		ew.printf("\nWatchers (change streams; not operations: in no total or SLO of theirs; lag ms from the commit to receipt).\n\n")
		wt := &table{left: 2}
		wt.add(WatcherHead...)
		for _, r := range rows {
			wt.add(r...)
		}
		wt.markdown(ew)
	}
	writeNotes(ew, res.Notes, true)
	if res.ConfigLine != "" {
		ew.printf("\nConfiguration: `%s`\n", res.ConfigLine)
	}
	return ew.err
}
