package sink

import (
	"fmt"
	"time"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
)

// Sink receives interval snapshots and the final result. Calls come from one
// goroutine at a time (a Fanout gives each sink its own), so a Sink needs no
// locking of its own. The Interval must not be modified: other sinks read it
// concurrently.
type Sink interface {
	// Interval receives one interval; elapsed is the time since the measured
	// phase began, at the interval's end.
	Interval(iv *metrics.Interval, elapsed time.Duration)
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
