package engine

import "time"

// wakeSpacing is the least time between two wake-ups of a scheduling
// goroutine (the open-loop scheduler, the sessions dispatcher). Waking for
// every operation would be exact but costs the client a kernel round trip
// per operation (about 40 µs of CPU each on the 2-core VM); at this spacing
// a scheduler wakes at most 2,000 times a second, dispatching everything due
// by then, so an operation is handed on at most about 0.5 ms after its due
// time at any rate (BenchmarkScheduling*), where Go's own timers, which
// sleep in the network poller with millisecond granularity, hand it on
// 0.5 ms late at the median and 1.1 ms at p99 even at 200 operations a
// second, and that lateness is part of every open-loop latency.
const wakeSpacing = 500 * time.Microsecond

// spaced returns d, lengthened so that the wake-up it asks for comes at
// least wakeSpacing after the previous one (at last).
func spaced(d time.Duration, last, now time.Time) time.Duration {
	return max(d, last.Add(wakeSpacing).Sub(now))
}
