package workload

import (
	"time"

	"github.com/mongoload/mongoload/internal/metrics"
)

// Reply is what executing a Request came back with, beyond its error: what
// the server did with documents, and what the driver saw of the commands.
// An executor returns it by value, so replying allocates nothing.
type Reply struct {
	metrics.Docs // what the server did with documents (a transaction's are on its StepRuns)
	// Sent is when the operation's first command was sent (after a
	// connection was checked out); zero when sends are not tracked.
	// Service time runs from it.
	Sent time.Time
	// Failed counts the operation's commands that failed: an operation
	// that succeeded with some was retried by the driver.
	Failed int64
}
