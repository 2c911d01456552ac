package engine

import (
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// closedLoop is the closed-loop state: which workers are active (stages
// change it) and, when workers outnumber the runners, the queue of ready ones.
type closedLoop struct {
	active atomic.Int64
	mu     sync.Mutex
	wake   chan struct{} // closed and replaced when active changes
	ready  chan *worker  // nil: every worker has its own runner
	parked []*worker     // queued workers beyond the active count
}

// startClosed starts the runners. When workers outnumber MaxInFlight, the
// extra workers would only wait in the driver for a connection while holding
// a built request, the driver's buffers and a deep stack; instead
// MaxInFlight runners take ready workers in FIFO order, and a worker's
// latency still counts from the moment it was ready, as it would have when
// waiting in the driver.
func (r *run) startClosed(wg *sync.WaitGroup) {
	c := &r.closed
	n := closedWorkers(r.o)
	first, _ := r.schedule.RateAt(0)
	c.active.Store(int64(first))
	c.wake = make(chan struct{})
	runners := n
	if queued(r.o) {
		runners = r.o.MaxInFlight
		c.ready = make(chan *worker, n)
		now := time.Now()
		for i := 0; i < n; i++ {
			w := r.newWorker(i)
			w.ready = now
			if int64(i) < c.active.Load() {
				c.ready <- w
			} else {
				c.parked = append(c.parked, w)
			}
		}
	}
	for i := 0; i < runners; i++ {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			if c.ready == nil {
				r.ownWorker(id)
			} else {
				r.queuedWorkers(id)
			}
		}(i)
	}
}

// ownWorker runs worker id for as long as the run lasts and the worker is active.
func (r *run) ownWorker(id int) {
	c := &r.closed
	w := r.newWorker(id)
	shard := r.rec.Shard(id)
	for !r.stop.Load() {
		if int64(id) >= c.active.Load() {
			c.mu.Lock()
			wake := c.wake
			c.mu.Unlock()
			if int64(id) >= c.active.Load() {
				select {
				case <-wake:
				case <-r.stopCh():
					return
				}
			}
			continue
		}
		if !r.step(w, shard, time.Time{}) {
			return
		}
	}
}

// queuedWorkers runs whichever active worker is ready next.
func (r *run) queuedWorkers(id int) {
	c := &r.closed
	shard := r.rec.Shard(id)
	for {
		var w *worker
		select {
		case w = <-c.ready:
		case <-r.stopCh():
			return
		}
		if r.stop.Load() {
			return
		}
		if int64(w.id) >= c.active.Load() && r.park(w) {
			continue
		}
		ok := r.step(w, shard, w.ready)
		w.ready = time.Now()
		c.ready <- w // never blocks: the channel holds every worker
		if !ok {
			return
		}
	}
}

// park sets w aside while it is beyond the active count.
func (r *run) park(w *worker) bool {
	c := &r.closed
	c.mu.Lock()
	defer c.mu.Unlock()
	if int64(w.id) < c.active.Load() {
		return false
	}
	c.parked = append(c.parked, w)
	return true
}

// setWorkers changes the number of active workers (a stage began).
func (r *run) setWorkers(n int64) {
	c := &r.closed
	c.mu.Lock()
	defer c.mu.Unlock()
	c.active.Store(n)
	close(c.wake)
	c.wake = make(chan struct{})
	if c.ready == nil {
		return
	}
	kept := c.parked[:0]
	now := time.Now()
	for _, w := range c.parked {
		if int64(w.id) < n {
			w.ready = now
			c.ready <- w
		} else {
			kept = append(kept, w)
		}
	}
	c.parked = kept
}

// rampWorkers applies the closed-loop stages from the measured start,
// again and again with RepeatStages.
func (r *run) rampWorkers(start time.Time) {
	var at time.Duration
	for {
		for _, st := range r.o.Stages {
			if wait := time.Until(start.Add(at)); wait > 0 {
				select {
				case <-time.After(wait):
				case <-r.stopCh():
					return
				}
			}
			r.setWorkers(int64(math.Round(st.Target)))
			at += st.Duration
		}
		if !r.o.RepeatStages || at <= 0 {
			return
		}
	}
}
