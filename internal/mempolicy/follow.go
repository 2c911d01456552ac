package mempolicy

import (
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// Floor is the lowest soft limit that keeps the heap goal at or above Go's
// default one for a live heap of live bytes: twice the live heap (GOGC=100),
// plus the margin, in whole MiB. Under a lower limit the collector would
// run more often than under Go's defaults, and the scavenger would keep
// handing memory back only to fault it in again: CPU the policy exists to
// save.
func Floor(live int64) int64 {
	return (2*live + headroom + 1<<20 - 1) &^ (1<<20 - 1)
}

// Follower keeps a sized limit at or above Floor of the live heap it
// reads every interval: the estimate behind Size (Live) counts what every
// run keeps, not what a workload's own generators and documents keep, and
// a live heap above the estimate must raise the limit rather than make the
// policy cost more than Go's defaults (docs/performance.md, The memory
// policy).
type Follower struct {
	limit  int64
	stop   chan struct{}
	done   chan struct{}
	once   sync.Once
	raised int64 // the highest limit set; read after done
}

// Follow starts a Follower for p, or returns nil when p's limit was set
// by the user or is off: the user's setting is kept as given.
func Follow(p Policy, every time.Duration) *Follower {
	if !p.LimitSized || p.LimitBytes == Unlimited {
		return nil
	}
	f := &Follower{limit: p.LimitBytes, stop: make(chan struct{}), done: make(chan struct{})}
	go f.run(every)
	return f
}

func (f *Follower) run(every time.Duration) {
	defer close(f.done)
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-f.stop:
			return
		case <-t.C:
		}
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return // a runtime without the metric: keep the sized limit
		}
		if floor := Floor(int64(sample[0].Value.Uint64())); floor > f.limit {
			f.limit = floor
			f.raised = floor
			debug.SetMemoryLimit(floor)
		}
	}
}

// Stop ends the follower and returns the highest limit it set, 0 if it
// never raised the limit. A nil Follower returns 0.
func (f *Follower) Stop() int64 {
	if f == nil {
		return 0
	}
	f.once.Do(func() { close(f.stop) })
	<-f.done
	return f.raised
}
