// Package report renders the result model (internal/results) for people:
// the final console report, YCSB's text output, CSV files, Markdown
// tables, sweep and comparison reports; the HTML page is in report/html.
// What a run reports while it runs (the live line, YCSB's status lines,
// the HDR interval log) are sinks, in internal/sink; the results file is
// written by the run (internal/run). Only the command layer imports it.
//
// Renderers read the model and never change what it counts: totals, clocks
// and the mix are decided in internal/results, once.
package report
