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
	// due holds up to k due sessions, so the dispatcher hands off every
	// session that is due in one pass instead of one rendezvous per
	// operation; a session waiting there is late exactly as one waiting in
	// the heap, and its latency counts from when it was due either way.
	due := make(chan *worker, k)
	back := make(chan *worker, m) // never blocks a runner
	h := make(sessionHeap, 0, m)
	for i := 0; i < m; i++ {
		h = append(h, r.newWorker(i))
	}
	// Spread the first operations over one think time from now, once every
	// session exists (making ten thousand takes milliseconds that must not
	// count as lateness), so the sessions do not all start in one instant.
	now := time.Now()
	for i, w := range h {
		w.ready = now.Add(time.Duration(w.st.Rand.Float64() * float64(r.o.ThinkTime)))
		w.heap = i
	}
	heap.Init(&h)
	for i := 0; i < k; i++ {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			r.sessionRunner(id, due, back)
		}(i)
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(due)
		r.dispatchSessions(&h, due, back)
	}()
}

// sessionRunner runs each session the dispatcher hands it, its latency
// counting from when it was due, and hands it back to think.
func (r *run) sessionRunner(id int, due <-chan *worker, back chan<- *worker) {
	shard := r.rec.Shard(id)
	for w := range due {
		if r.o.handOff != nil {
			r.o.handOff(time.Since(w.ready))
		}
		ok := r.step(w, shard, w.ready)
		w.ready = time.Now().Add(r.think(w))
		back <- w
		if !ok {
			return
		}
	}
}

func (r *run) think(w *worker) time.Duration {
	if r.o.ThinkExp {
		return time.Duration(w.st.Rand.ExpFloat64() * float64(r.o.ThinkTime))
	}
	return r.o.ThinkTime
}

// dispatchSessions hands each session to a runner when it is due. Each
// pass takes back every session the runners returned and hands off every
// due one the queue has room for, reading the clock once; it sleeps only
// when nothing is due (or every runner is busy and the queue full).
func (r *run) dispatchSessions(h *sessionHeap, due chan<- *worker, back <-chan *worker) {
	timer := newWaker()
	defer timer.Close()
	// The dispatcher is one goroutine: it times its own work, the time
	// outside its select, so a dispatcher that cannot keep up is reported
	// as the client's limit (waiting for a free runner is not work).
	busy := busyClock{rec: r.rec, woke: time.Now()}
	defer func() { busy.flush(time.Now()) }()
	for !r.stop.Load() {
		for returned := true; returned; {
			select {
			case w := <-back:
				heap.Push(h, w)
			default:
				returned = false
			}
		}
		now := time.Now()
		full := false
		for h.Len() > 0 && !full && !(*h)[0].ready.After(now) {
			select {
			case due <- (*h)[0]:
				heap.Pop(h)
			default:
				full = true
			}
		}
		var out chan<- *worker
		var head *worker
		var wake, wakeT <-chan time.Time
		if h.Len() > 0 {
			head = (*h)[0]
			if wait := head.ready.Sub(now); wait <= 0 {
				out = due // due, but the queue is full: wait for room
			} else {
				timer.Reset(wait)
				wake, wakeT = timer.C, timer.T
			}
		}
		busy.flush(time.Now()) // the pass's work, hand-offs included
		select {
		case out <- head:
			heap.Pop(h)
		case w := <-back:
			heap.Push(h, w)
		case <-wake:
		case <-wakeT:
		case <-r.stopCh():
			return
		}
		busy.woke = time.Now()
		// A wake-up is delivered only once the latest Reset's deadline
		// passed; an early one would only make an extra pass.
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
