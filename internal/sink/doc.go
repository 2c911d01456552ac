// Package sink is how interval snapshots and the final result reach their
// consumers: a Sink receives one metrics.Interval per interval, never one
// message per operation, and a Fanout gives each sink its own goroutine so a
// slow one never blocks the engine.
package sink
