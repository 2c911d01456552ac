// Package report turns interval snapshots into what users read: a live line
// per interval, the final console report and the versioned results file.
//
// Sinks receive one metrics.Interval per interval, never one message per
// operation, and a Fanout keeps a slow sink from ever blocking the engine.
// The results file format is Result; docs/results-schema.md documents it.
package report
