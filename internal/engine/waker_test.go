package engine

import (
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/testserver"
)

// wait returns when w delivers on either clock.
func wait(w *waker) time.Time {
	select {
	case t := <-w.C:
		return t
	case t := <-w.T:
		return t
	}
}

// TestWakerNeverEarly: a scheduler hands an operation on when its waker
// wakes it, so a wake-up before the deadline would send the operation early
// and understate its latency.
func TestWakerNeverEarly(t *testing.T) {
	w := newWaker()
	defer w.Close()
	for _, d := range []time.Duration{0, 30 * time.Microsecond, 300 * time.Microsecond, 3 * time.Millisecond} {
		asked := time.Now()
		w.Reset(d)
		if got := wait(w).Sub(asked); got < d {
			t.Errorf("Reset(%v) woke after %v", d, got)
		}
	}
}

// TestWakerForgetsEarlierDeadline: a deadline moved later (the sessions
// dispatcher re-arms for a new head) must not be woken at the earlier one.
func TestWakerForgetsEarlierDeadline(t *testing.T) {
	w := newWaker()
	defer w.Close()
	w.Reset(time.Millisecond)
	asked := time.Now()
	w.Reset(20 * time.Millisecond)
	if got := wait(w).Sub(asked); got < 20*time.Millisecond {
		t.Fatalf("woke after %v, before the later deadline of 20ms", got)
	}
}

// TestWakerSpacing: the timerfd's wake-ups are at least wakeSpacing apart,
// which bounds what precise waking costs the client.
func TestWakerSpacing(t *testing.T) {
	w := newWaker()
	defer w.Close()
	w.Reset(0)
	wait(w)
	if w.f == nil {
		t.Skip("no timerfd here: Go's timer alone, which needs no spacing")
	}
	// The timerfd's expiry may be recorded after Go's timer woke wait: a
	// zero first wake-up would make any second one pass.
	var first time.Time
	testserver.Await(t, 10*time.Second, "the timerfd's first wake-up", func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		first = w.fired
		return !first.IsZero()
	})
	w.Reset(10 * time.Microsecond)
	if got := wait(w).Sub(first); got < wakeSpacing {
		t.Fatalf("second wake-up %v after the first, want at least %v", got, wakeSpacing)
	}
}

func TestSpaced(t *testing.T) {
	now := time.Now()
	for _, c := range []struct {
		name string
		d    time.Duration
		last time.Time
		want time.Duration
	}{
		{"long wait unchanged", 2 * time.Millisecond, now.Add(-100 * time.Microsecond), 2 * time.Millisecond},
		{"short wait right after a wake-up is lengthened", 20 * time.Microsecond, now.Add(-100 * time.Microsecond), wakeSpacing - 100*time.Microsecond},
		{"short wait long after a wake-up unchanged", 20 * time.Microsecond, now.Add(-time.Second), 20 * time.Microsecond},
	} {
		if got := spaced(c.d, c.last, now); got != c.want {
			t.Errorf("%s: spaced(%v) = %v, want %v", c.name, c.d, got, c.want)
		}
	}
}
