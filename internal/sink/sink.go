package sink

import (
	"fmt"
	"time"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
)

// Snapshot is one interval as every sink receives it: what was recorded
// (the histograms, for the sinks that need them) and its summary, computed
// once by the run on its collecting goroutine and shared by every sink.
// A Snapshot is read-only: sinks read it concurrently.
type Snapshot struct {
	Interval *metrics.Interval
	// Elapsed is the time since the measured phase began, at the interval's end.
	Elapsed time.Duration
	Summary results.IntervalSummary
}

// NewSnapshot summarises iv (results.Summarize) for the sinks.
func NewSnapshot(iv *metrics.Interval, elapsed time.Duration) *Snapshot {
	return &Snapshot{Interval: iv, Elapsed: elapsed, Summary: results.Summarize(iv, elapsed)}
}

// Sink receives interval snapshots and the final result: the one interface
// of everything a run reports to while it runs (the live line, the
// interval log, YCSB's status lines, Prometheus, the dashboard). Calls come
// from one goroutine at a time (a Fanout gives each sink its own), so a
// Sink needs no locking of its own. It must never block the engine, which
// the Fanout ensures.
type Sink interface {
	// Interval receives one interval.
	Interval(s *Snapshot)
	// Close says the run is over; the sink writes its final output. res may
	// be nil if the run failed before a result could be built.
	Close(res *results.Result) error
}

// Namer is implemented by sinks that have a name for messages about them.
type Namer interface {
	Name() string
}

// sinkName names s for notes and errors.
func sinkName(s Sink) string {
	if n, ok := s.(Namer); ok {
		return n.Name()
	}
	return fmt.Sprintf("%T", s)
}
