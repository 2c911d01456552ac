package engine

import "time"

// Fed is one operation of a replayed schedule (Options.Feed).
type Fed struct {
	// At is when it is due, from the measured start; below 0, it is sent
	// as soon as an in-flight place is free (replay --speed max), and its
	// latency starts at its send.
	At  time.Duration
	Op  int    // the plan's operation it is measured under
	Cmd []byte // its command (workload.Request.Command)
	// After, if set, is closed when the operation before it on its
	// connection has ended: it is sent only then, so that each captured
	// connection keeps its order. Done is closed when this one ends, sent,
	// dropped or abandoned.
	After <-chan struct{}
	Done  chan struct{}
}

// end tells the next operation of its connection that this one is over.
func (f *Fed) end() {
	if f.Done != nil {
		close(f.Done)
		f.Done = nil
	}
}

// Feed hands a replay's operations in the order they are due.
type Feed interface {
	// Next returns the next operation; false when there is none left.
	Next() (*Fed, bool)
}

// feed is the scheduler of a replay: each operation is handed to an idle
// runner at its own due time (a late one at once, with its own due time,
// so the lateness is measured), dropped and counted when every in-flight
// place is taken, or, sent as fast as it goes (At < 0), handed on when a
// place frees. The run ends when the feed does.
func (r *run) feed(work chan<- due, spawn func(due) bool) {
	select {
	case <-r.measured:
	case <-r.stopCh():
		return
	}
	base := r.measureStart
	wake := newWaker()
	defer wake.Close()
	busy := busyClock{rec: r.rec, woke: time.Now()}
	defer func() { busy.flush(time.Now()) }()
	for !r.stop.Load() {
		f, ok := r.o.Feed.Next()
		if !ok {
			return
		}
		d := due{fed: f}
		if f.At >= 0 {
			d.at = base.Add(f.At)
			now := time.Now()
			if wait := d.at.Sub(now); wait > 0 {
				busy.flush(now)
				for ; wait > 0; wait = time.Until(d.at) { // never hand on early
					wake.Reset(wait)
					select {
					case <-wake.C:
					case <-wake.T:
					case <-r.stopCh():
						f.end()
						return
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
		if f.At < 0 {
			busy.flush(time.Now())
			select {
			case work <- d:
				busy.woke = time.Now()
				continue
			case <-r.stopCh():
				f.end()
				return
			}
		}
		r.rec.Dropped()
		f.end()
	}
}

// executeFed runs the operation the feed handed w, once the operation
// before it on its connection has ended.
func (r *run) executeFed(w *worker, x *executed) {
	f := w.fed
	w.fed = nil
	defer f.end()
	x.i = f.Op
	if f.After != nil {
		select {
		case <-f.After:
		case <-r.opCtx.Done():
			x.start = time.Now()
			x.end, x.err = x.start, r.opCtx.Err()
			if x.intended.IsZero() {
				x.intended = x.start
			}
			return
		}
	}
	w.req.Op, w.req.Command = r.plan.Ops[x.i], f.Cmd
	r.rec.InFlight(1)
	x.start = time.Now()
	x.reply, x.err = r.execs[x.i].Do(r.opCtx, &w.req)
	x.end = time.Now()
	r.rec.InFlight(-1)
	if x.intended.IsZero() {
		x.intended = x.start
	}
	w.req.Command = nil
}
