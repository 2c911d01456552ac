package engine

import (
	"sync"
	"sync/atomic"
	"time"
)

// Gap is a span of the measured phase during which operations failed and
// none succeeded: the availability gap a fault caused, as the client saw it.
type Gap struct {
	Start time.Time // the first failure
	End   time.Time // the first success after it, or the run's end if Open
	Open  bool      // no operation succeeded after it
}

// faultTracker finds the gaps. A success costs one atomic load while no gap
// is open; failures are rare, and only they and the first success after
// them take the lock.
type faultTracker struct {
	open atomic.Int64 // UnixNano of the open gap's first failure; 0: none
	mu   sync.Mutex
	gaps []Gap
}

func (f *faultTracker) failed(at time.Time) {
	if f.open.Load() == 0 {
		f.open.CompareAndSwap(0, at.UnixNano())
	}
}

func (f *faultTracker) succeeded(at time.Time) {
	if f.open.Load() == 0 {
		return
	}
	start := f.open.Swap(0)
	if start == 0 {
		return // another worker closed it
	}
	if at.UnixNano() <= start {
		// This success ended before the failure that opened the gap: it
		// does not close it.
		f.open.CompareAndSwap(0, start)
		return
	}
	f.mu.Lock()
	f.gaps = append(f.gaps, Gap{Start: time.Unix(0, start), End: at})
	f.mu.Unlock()
}

// result returns the gaps, the one still open ending at end.
func (f *faultTracker) result(end time.Time) []Gap {
	f.mu.Lock()
	defer f.mu.Unlock()
	gaps := append([]Gap(nil), f.gaps...)
	if start := f.open.Load(); start != 0 {
		gaps = append(gaps, Gap{Start: time.Unix(0, start), End: end, Open: true})
	}
	return gaps
}
