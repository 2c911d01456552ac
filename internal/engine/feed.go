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
	if f != nil && f.Done != nil {
		close(f.Done)
		f.Done = nil
	}
}

// Feed hands a replay's operations in the order they are due.
type Feed interface {
	// Next returns the next operation; false when there is none left.
	Next() (*Fed, bool)
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
