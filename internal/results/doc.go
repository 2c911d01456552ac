// Package results is the result model of a run: the versioned results file
// (Result, Schema) and sweep file (Sweep), the rules about what counts (the
// mix's operations and not a transaction's steps, which clock a latency
// starts from, totals and throughput) and Build, which makes a Result from
// the engine's totals and interval series. It renders nothing: internal/report
// shows a Result; docs/results-schema.md documents the file.
package results
