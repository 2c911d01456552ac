package engine

import (
	"os"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// waker wakes a scheduling goroutine at a due time with sub-millisecond
// precision whether the process is idle or busy. Idle, Go's timers sleep in
// the network poller with millisecond granularity (see wakeSpacing), so C
// is fed by a timerfd in that poller: the poller's thread wakes when it
// expires. Busy, the poller is read only when a processor runs out of
// goroutines (or every 10 ms), while Go's timers are checked at every
// goroutine switch, so T is a Go timer for the same deadline. Wait on both.
//
// Arming the timerfd is a system call that reprograms the CPU's timer (a VM
// exit on a virtual machine), so it is armed only when it has no earlier
// expiry pending: a deadline that moved later is re-armed once that expiry
// comes, and the expiry is not delivered.
type waker struct {
	C  <-chan time.Time
	T  <-chan time.Time
	c  chan time.Time
	t  *time.Timer
	f  *os.File // nil: no timerfd, Go's timer alone
	fd int      // f's descriptor

	mu       sync.Mutex
	deadline time.Time // the latest Reset's deadline; zero once delivered
	armed    time.Time // the timerfd's pending expiry, zero if none
	fired    time.Time // the timerfd's latest expiry
}

func newWaker() *waker {
	w := &waker{c: make(chan time.Time, 1), t: time.NewTimer(time.Hour)}
	w.t.Stop()
	w.T = w.t.C
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return w
	}
	w.fd, w.f, w.C = fd, os.NewFile(uintptr(fd), "timerfd"), w.c
	go w.read()
	return w
}

// Reset asks for a wake-up in d, at least wakeSpacing after the timerfd's
// previous expiry, forgetting any earlier request.
func (w *waker) Reset(d time.Duration) {
	if w.f == nil {
		w.t.Reset(d)
		return
	}
	now := time.Now()
	w.mu.Lock()
	if !w.fired.IsZero() {
		d = spaced(d, w.fired, now)
	}
	d = max(d, time.Microsecond)
	w.deadline = now.Add(d)
	if w.armed.IsZero() || w.deadline.Before(w.armed) {
		w.arm(d)
	}
	w.mu.Unlock()
	w.t.Reset(d) // since Go 1.23 a reset timer never delivers a stale fire
	select {
	case <-w.c: // an undelivered wake-up of an earlier request
	default:
	}
}

// arm sets the timerfd to expire in d; w.mu is held.
func (w *waker) arm(d time.Duration) {
	spec := unix.ItimerSpec{Value: unix.NsecToTimespec(int64(d))}
	if unix.TimerfdSettime(w.fd, 0, &spec, nil) == nil {
		w.armed = time.Now().Add(d)
	}
	// On an error (impossible with a valid fd and duration) T still wakes.
}

// read turns the timerfd's expirations into wake-ups; it ends when Close
// closes the timerfd.
func (w *waker) read() {
	var b [8]byte
	for {
		if _, err := w.f.Read(b[:]); err != nil {
			return
		}
		now := time.Now()
		w.mu.Lock()
		w.fired, w.armed = now, time.Time{}
		due := !w.deadline.IsZero() && !now.Before(w.deadline)
		switch {
		case due:
			w.deadline = time.Time{}
		case !w.deadline.IsZero():
			w.arm(w.deadline.Sub(now)) // the deadline moved later
		}
		w.mu.Unlock()
		if due {
			select {
			case w.c <- now:
			default:
			}
		}
	}
}

// Close releases the timers and ends the reader.
func (w *waker) Close() {
	w.t.Stop()
	if w.f != nil {
		_ = w.f.Close()
	}
}
