package engine

import (
	"sync"
	"time"

	"github.com/mongoload/mongoload/internal/generate"
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
		if r.o.Feed != nil {
			r.feed(work, spawn)
			return
		}
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

// schedule0 paces the warm-up at the first stage's rate, then the measured
// phase by the stages from the measured start.
func (r *run) schedule0(work chan<- due, spawn func(due) bool) {
	rng := generate.NewState(r.o.RandomSeed, 1<<40).Rand
	if r.o.Warmup > 0 {
		first, _ := r.schedule.RateAt(0)
		if !r.pace(NewSchedule([]Stage{{Target: first}}), work, spawn, rng.ExpFloat64, r.measured) {
			return
		}
	} else {
		select {
		case <-r.measured:
		case <-r.stopCh():
			return
		}
	}
	r.pace(r.schedule, work, spawn, rng.ExpFloat64, nil)
}

// pace dispatches the operations of s, from now, until until is closed (true)
// or the run stops or the stages end (false). Operations already due are
// dispatched at once with their own scheduled times, so a late wake-up costs
// latency that is measured, not throughput that is lost.
func (r *run) pace(s *Schedule, work chan<- due, spawn func(due) bool, exp func() float64, until <-chan struct{}) bool {
	base := time.Now()
	wake := newWaker()
	defer wake.Close()
	var n int64
	var off time.Duration
	// The scheduler is one goroutine: it times its own work (from waking
	// to its next wait) and how late it hands operations on, so that a
	// scheduler that cannot keep up is reported as the client's limit.
	busy := busyClock{rec: r.rec, woke: base}
	defer func() { busy.flush(time.Now()) }()
	for !r.stop.Load() {
		var ok bool
		if r.o.Poisson {
			if n == 0 {
				off, ok = s.next(0, exp())
			} else {
				off, ok = s.next(off, exp())
			}
		} else {
			off, ok = s.At(n)
		}
		if !ok {
			<-r.stopCh() // the stages are over; the collector ends the run
			return false
		}
		at := base.Add(off)
		now := time.Now()
		if wait := at.Sub(now); wait > 0 {
			busy.flush(now)
			for ; wait > 0; wait = time.Until(at) { // never hand on early
				wake.Reset(wait)
				select {
				case <-wake.C:
				case <-wake.T:
				case <-until:
					return true
				case <-r.stopCh():
					return false
				}
			}
			busy.woke = time.Now()
		} else {
			r.rec.SchedulerLag(-wait)
			busy.tick(now)
		}
		r.rec.Scheduled(1)
		select {
		case work <- due{at: at}:
		default:
			if !spawn(due{at: at}) {
				r.rec.Dropped()
			}
		}
		n++
	}
	return false
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
