package engine

import "time"

// wakeSpacing is the least time between two timerfd wake-ups of a
// scheduling goroutine (the open-loop scheduler, the sessions dispatcher).
// Waking for every operation would be exact, but each wake-up of an idle
// process costs the client a kernel round trip (tens of µs of CPU on a
// virtual machine); at this spacing a scheduler wakes at most 2,500 times a
// second and hands on together everything due by then, which keeps p99
// lateness under 1 ms at 50,000 operations a second on one core
// (BenchmarkScheduling*: lateness grows with the spacing, scheduling CPU
// shrinks). Go's own timers sleep in the network poller with millisecond
// granularity: alone they hand operations on about 0.5 ms late at the
// median at any rate, and that lateness is part of every open-loop latency.
const wakeSpacing = 400 * time.Microsecond

// spaced returns d, lengthened so that the wake-up it asks for comes at
// least wakeSpacing after the previous one (at last).
func spaced(d time.Duration, last, now time.Time) time.Duration {
	return max(d, last.Add(wakeSpacing).Sub(now))
}
