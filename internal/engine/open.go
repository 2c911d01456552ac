package engine

import (
	"sync"
	"time"

	"github.com/mongoload/mongoload/internal/metrics"
)

// DefaultMaxInFlight is the open loop's default bound on operations in flight.
const DefaultMaxInFlight = 1000

// startOpen starts the scheduler of an open-loop run. The scheduler hands
// each due operation, with its scheduled time, to an idle runner, starting a
// new runner when none is idle, up to MaxInFlight; beyond that the operation
// is dropped and counted, never queued silently. Runners are started on
// demand so that their number, and their stacks, follow the operations
// actually in flight rather than the bound. Latency is measured from the
// scheduled time.
func (r *run) startOpen(wg *sync.WaitGroup) {
	k := r.o.MaxInFlight
	if k <= 0 {
		k = DefaultMaxInFlight
	}
	// Unbuffered: a hand-off succeeds only if a runner is waiting for work.
	work := make(chan due)
	spawned := 0
	spawn := func(first due) bool {
		if spawned >= k {
			return false
		}
		id := spawned
		spawned++
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.openRunner(id, first, work)
		}()
		return true
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(work)
		r.schedule0(work, spawn)
	}()
}

// due is one operation handed to a runner: when it was due, and, in a
// replay, what it is (Options.Feed).
type due struct {
	at  time.Time
	fed *Fed
}

// openRunner runs its first operation, then each one the scheduler hands
// it, its latency counting from when it was due.
func (r *run) openRunner(id int, first due, work <-chan due) {
	w := r.newWorker(id)
	shard := r.rec.Shard(id)
	for d, ok := first, true; ok; d, ok = <-work {
		w.fed = d.fed
		due := d.at
		if late := time.Since(due); !due.IsZero() { // zero: sent as fast as it goes (Fed.At)
			if late > r.o.LateAfter {
				r.rec.Late()
			}
			if r.o.handOff != nil {
				r.o.handOff(late)
			}
		}
		if !r.step(w, shard, due) {
			return
		}
	}
}

// busyClock accumulates a scheduling goroutine's working time into the
// recorder: flushed before each wait, and every busyFlushEvery operations
// while it never waits (a saturated scheduler), so every interval sees it.
type busyClock struct {
	rec  *metrics.Recorder
	woke time.Time
	n    int
}

const busyFlushEvery = 256

func (b *busyClock) flush(now time.Time) {
	b.rec.SchedulerBusy(now.Sub(b.woke))
	b.woke, b.n = now, 0
}

// tick counts one operation handed on without waiting.
func (b *busyClock) tick(now time.Time) {
	if b.n++; b.n >= busyFlushEvery {
		b.flush(now)
	}
}
