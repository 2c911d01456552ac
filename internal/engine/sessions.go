package engine

import (
	"container/heap"
	"sync"
	"time"
)

// DefaultSessionRunners bounds the goroutines executing for sessions when
// MaxInFlight is not set: the driver's default connection pool size.
const DefaultSessionRunners = 100

// startSessions runs Sessions simulated users: each waits its think time
// between operations. Sessions are values in a timer heap, not goroutines,
// so ten thousand cost a few megabytes; a bounded set of runners executes
// whichever is due. A session's latency counts from when its operation was
// due, so a backlog of due sessions shows as latency, as a real user would
// see it.
func (r *run) startSessions(wg *sync.WaitGroup) {
	m := r.o.Sessions
	k := r.o.MaxInFlight
	if k <= 0 {
		k = min(m, DefaultSessionRunners)
	}
	due := make(chan *worker)
	back := make(chan *worker, m) // never blocks a runner
	h := make(sessionHeap, 0, m)
	now := time.Now()
	for i := 0; i < m; i++ {
		w := r.newWorker(i)
		// Spread the first operations over one think time, so the sessions
		// do not all start in the same instant.
		w.ready = now.Add(time.Duration(w.st.Rand.Float64() * float64(r.o.ThinkTime)))
		heap.Push(&h, w)
	}
	for i := 0; i < k; i++ {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			ctx, clock := r.runnerCtx()
			shard := r.rec.Shard(id)
			for w := range due {
				if r.o.handOff != nil {
					r.o.handOff(time.Since(w.ready))
				}
				ok := r.exec(ctx, clock, w, shard, w.ready)
				w.ready = time.Now().Add(r.think(w))
				back <- w
				if !ok {
					return
				}
			}
		}(i)
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(due)
		r.dispatchSessions(&h, due, back)
	}()
}

func (r *run) think(w *worker) time.Duration {
	if r.o.ThinkExp {
		return time.Duration(w.st.Rand.ExpFloat64() * float64(r.o.ThinkTime))
	}
	return r.o.ThinkTime
}

// dispatchSessions hands each session to a runner when it is due.
func (r *run) dispatchSessions(h *sessionHeap, due chan<- *worker, back <-chan *worker) {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for !r.stop.Load() {
		var out chan<- *worker
		var head *worker
		var wake <-chan time.Time
		if h.Len() > 0 {
			head = (*h)[0]
			if wait := time.Until(head.ready); wait <= 0 {
				out = due
			} else {
				timer.Reset(wait)
				wake = timer.C
			}
		}
		select {
		case out <- head:
			heap.Pop(h)
		case w := <-back:
			heap.Push(h, w)
		case <-wake:
		case <-r.stopCh():
			return
		}
		// Since Go 1.23 a Reset timer never delivers a stale fire: no drain.
	}
}

// sessionHeap orders sessions by the time their next operation is due.
type sessionHeap []*worker

func (h sessionHeap) Len() int           { return len(h) }
func (h sessionHeap) Less(i, j int) bool { return h[i].ready.Before(h[j].ready) }
func (h sessionHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].heap, h[j].heap = i, j
}
func (h *sessionHeap) Push(x any) {
	w := x.(*worker)
	w.heap = len(*h)
	*h = append(*h, w)
}
func (h *sessionHeap) Pop() any {
	old := *h
	w := old[len(old)-1]
	*h = old[:len(old)-1]
	return w
}
