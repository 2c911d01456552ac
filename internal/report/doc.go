// Package report renders the result model (internal/results) for people:
// a live line per interval, the final console report, YCSB's text output,
// CSV files, Markdown tables, sweep and comparison reports, and the HDR
// interval log; the results file is written by its JSON sink. The HTML page
// is in report/html.
//
// Renderers read the model and never change what it counts: totals, clocks
// and the mix are decided in internal/results, once.
package report
