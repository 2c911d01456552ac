package run

import (
	"time"

	"github.com/mongoload/mongoload/internal/engine"
	"github.com/mongoload/mongoload/internal/results"
)

// Arrivals is an open loop's arrival source other than the rate's: a
// replayed trace's captured times (internal/replay). The engine's one
// scheduler hands on its operations as it does the rate's; the run has
// no warm-up, no duration and no count, and ends with the source.
type Arrivals interface {
	engine.Feed
	// Load is how the operations arrive, in the load model's words
	// ("replay at speed 2"), and how many may be in flight at once.
	Load() (arrival string, maxInFlight int)
	// SendLag is told how late each operation was sent
	// (engine.Options.SendLag).
	SendLag(time.Duration)
	// Complete adds the source's own part to the result, before the
	// result is written and reported.
	Complete(*results.Result)
}

// withArrivals paces the engine by a instead of the rate.
func withArrivals(o *engine.Options, lm *results.LoadModel, a Arrivals) {
	arrival, k := a.Load()
	o.Feed, o.SendLag, o.MaxInFlight = a, a.SendLag, k
	o.Duration, o.Operations, o.Warmup = 0, 0, 0
	lm.Arrival, lm.MaxInFlight, lm.Concurrency = arrival, k, k
}
