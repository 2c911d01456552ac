package engine

import (
	"time"

	"github.com/mongoload/mongoload/internal/generate"
)

// arrivals is an arrival source of the open loop: when each operation is
// due, from the source's start. The rate's schedule (Rate, Stages,
// Poisson) and a replay's captured times (Options.Feed) are two sources
// of the one loop that hands operations on, arrive.
type arrivals interface {
	// next returns the next operation's due offset and, in a replay, the
	// operation itself (nil: one drawn from the mix); false once the
	// source ends. A negative offset is sent as soon as an in-flight place
	// frees (replay --speed max).
	next() (off time.Duration, fed *Fed, ok bool)
}

// rateArrivals are the schedule's: fixed gaps, or Poisson arrivals at the
// rate in force.
type rateArrivals struct {
	s       *Schedule
	poisson bool
	exp     func() float64
	n       int64
	off     time.Duration
}

func (a *rateArrivals) next() (time.Duration, *Fed, bool) {
	var ok bool
	if a.poisson {
		a.off, ok = a.s.next(a.off, a.exp())
	} else {
		a.off, ok = a.s.At(a.n)
	}
	a.n++
	return a.off, nil, ok
}

// fedArrivals are a replay's: each operation at its own time.
type fedArrivals struct{ f Feed }

func (a fedArrivals) next() (time.Duration, *Fed, bool) {
	f, ok := a.f.Next()
	if !ok {
		return 0, nil, false
	}
	return f.At, f, true
}

// schedule0 runs the open loop's arrivals. A replay starts with the
// measured phase, at the measured start, and the run ends with its feed.
// A rate paces the warm-up at the first stage's rate, then the measured
// phase by the stages from the measured start; once the stages are over
// the collector ends the run.
func (r *run) schedule0(work chan<- due, spawn func(due) bool) {
	if r.o.Feed != nil {
		select {
		case <-r.measured:
		case <-r.stopCh():
			return
		}
		r.arrive(fedArrivals{r.o.Feed}, r.measureStart, work, spawn, nil)
		return
	}
	exp := generate.NewState(r.o.RandomSeed, 1<<40).Rand.ExpFloat64
	if r.o.Warmup > 0 {
		first, _ := r.schedule.RateAt(0)
		warm := &rateArrivals{s: NewSchedule([]Stage{{Target: first}}), poisson: r.o.Poisson, exp: exp}
		if !r.arrive(warm, time.Now(), work, spawn, r.measured) {
			return
		}
	} else {
		select {
		case <-r.measured:
		case <-r.stopCh():
			return
		}
	}
	r.arrive(&rateArrivals{s: r.schedule, poisson: r.o.Poisson, exp: exp}, time.Now(), work, spawn, nil)
	<-r.stopCh() // the stages are over, or the run stopped
}

// arrive hands on the operations of src, due from base, until until is
// closed (true), or the run stops or src ends (false). Each operation goes
// to an idle runner at its due time, never early; one already due goes at
// once with its own due time, so a late wake-up costs latency that is
// measured, not throughput that is lost. When every in-flight place is
// taken it is dropped and counted, or, sent as fast as it goes, handed on
// when a place frees.
func (r *run) arrive(src arrivals, base time.Time, work chan<- due, spawn func(due) bool, until <-chan struct{}) bool {
	wake := newWaker()
	defer wake.Close()
	// The scheduler is one goroutine: it times its own work (from waking
	// to its next wait) and how late it hands operations on, so that a
	// scheduler that cannot keep up is reported as the client's limit.
	busy := busyClock{rec: r.rec, woke: time.Now()}
	defer func() { busy.flush(time.Now()) }()
	for !r.stop.Load() {
		off, fed, ok := src.next()
		if !ok {
			return false
		}
		d := due{fed: fed}
		if off >= 0 {
			d.at = base.Add(off)
			now := time.Now()
			if wait := d.at.Sub(now); wait > 0 {
				busy.flush(now)
				for ; wait > 0; wait = time.Until(d.at) { // never hand on early
					wake.Reset(wait)
					select {
					case <-wake.C:
					case <-wake.T:
					case <-until:
						fed.end()
						return true
					case <-r.stopCh():
						fed.end()
						return false
					}
				}
				busy.woke = time.Now()
			} else {
				r.rec.SchedulerLag(-wait)
				busy.tick(now)
			}
		}
		r.rec.Scheduled(1)
		select {
		case work <- d:
			continue
		default:
		}
		if spawn(d) {
			continue
		}
		if off < 0 {
			busy.flush(time.Now())
			select {
			case work <- d:
				busy.woke = time.Now()
				continue
			case <-r.stopCh():
				fed.end()
				return false
			}
		}
		r.rec.Dropped()
		fed.end()
	}
	return false
}
