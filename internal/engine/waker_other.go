//go:build !linux

package engine

import "time"

// waker wakes a scheduling goroutine at a due time. Off Linux it is Go's
// timer (see wakeSpacing for what that costs in precision).
type waker struct {
	C <-chan time.Time // nil: no second clock here
	T <-chan time.Time
	t *time.Timer
}

func newWaker() *waker {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &waker{T: t.C, t: t}
}

// Reset asks for a wake-up in d, forgetting any earlier request; since Go
// 1.23 a reset timer never delivers a stale fire. Go's timers are coarse
// enough that they need no spacing.
func (w *waker) Reset(d time.Duration) { w.t.Reset(d) }

// Close stops the timer.
func (w *waker) Close() { w.t.Stop() }
