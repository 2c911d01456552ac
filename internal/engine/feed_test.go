package engine

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/engine/enginetest"
	"github.com/mongoload/mongoload/internal/workload"
)

// slice is a feed of fixed operations.
type slice struct {
	fed []*Fed
	i   int
}

func (s *slice) Next() (*Fed, bool) {
	if s.i >= len(s.fed) {
		return nil, false
	}
	s.i++
	return s.fed[s.i-1], true
}

// sends is an executor that notes when each command (its first byte, an
// id) was sent and ended, taking delay.
type sends struct {
	mu         sync.Mutex
	start, end map[byte]time.Time
	delay      time.Duration
}

func (s *sends) exec() Executor {
	s.start, s.end = map[byte]time.Time{}, map[byte]time.Time{}
	return enginetest.Func(func(ctx context.Context, r *workload.Request) (workload.Reply, error) {
		now := time.Now()
		time.Sleep(s.delay)
		s.mu.Lock()
		s.start[r.Command[0]], s.end[r.Command[0]] = now, time.Now()
		s.mu.Unlock()
		return workload.Reply{Sent: now}, nil
	})
}

func feedRun(t *testing.T, fed []*Fed, delay time.Duration, maxInFlight int) (*Result, *sends, []time.Duration) {
	t.Helper()
	s := &sends{delay: delay}
	var mu sync.Mutex
	var lags []time.Duration
	res, _ := runWith(t, context.Background(), s.exec(), Options{Model: Open, Rate: 1, MaxInFlight: maxInFlight, Feed: &slice{fed: fed},
		SendLag: func(d time.Duration) { mu.Lock(); lags = append(lags, d); mu.Unlock() }})
	return res, s, lags
}

// TestFeedSendsOnItsOwnSchedule: each operation is sent at its own offset
// from the measured start, never before it, and the run ends with the feed.
func TestFeedSendsOnItsOwnSchedule(t *testing.T) {
	var fed []*Fed
	for i := range 20 {
		fed = append(fed, &Fed{At: time.Duration(i) * 15 * time.Millisecond, Op: i % 2, Cmd: []byte{byte(i)}})
	}
	res, s, lags := feedRun(t, fed, 0, 0)
	if ops, _ := total(res); ops != 20 || res.Outcome != Completed || len(lags) != 20 {
		t.Fatalf("%d operations, %d lags, outcome %s", ops, len(lags), res.Outcome)
	}
	for i, f := range fed {
		if at := s.start[byte(i)].Sub(res.Start); at < f.At {
			t.Errorf("operation %d sent %v after the start, before its time %v", i, at, f.At)
		}
	}
}

// TestFeedKeepsAConnectionsOrder: an operation whose connection's last one
// is still running waits for it, whatever its own time.
func TestFeedKeepsAConnectionsOrder(t *testing.T) {
	done := make(chan struct{})
	fed := []*Fed{{At: 0, Cmd: []byte{1}, Done: done}, {At: time.Millisecond, Cmd: []byte{2}, After: done}}
	_, s, _ := feedRun(t, fed, 30*time.Millisecond, 0)
	if s.start[2].Before(s.end[1]) {
		t.Fatalf("the second operation of the connection was sent at %v, before the first ended at %v", s.start[2], s.end[1])
	}
}

// TestFeedDropsAtTheCapUnlessAsFastAsItGoes: with every in-flight place
// taken, a due operation is dropped and counted; at --speed max (At < 0) it
// waits for a place instead, and none is dropped.
func TestFeedDropsAtTheCapUnlessAsFastAsItGoes(t *testing.T) {
	mk := func(at time.Duration) []*Fed {
		var fed []*Fed
		for i := range 6 {
			fed = append(fed, &Fed{At: at, Cmd: []byte{byte(i)}})
		}
		return fed
	}
	res, _, _ := feedRun(t, mk(0), 40*time.Millisecond, 2)
	if ops, _ := total(res); ops != 2 || res.Totals.Load().Dropped != 4 {
		t.Errorf("at the cap: %d sent, %d dropped; want 2 and 4", ops, res.Totals.Load().Dropped)
	}
	res, _, _ = feedRun(t, mk(-1), 10*time.Millisecond, 2)
	if ops, _ := total(res); ops != 6 || res.Totals.Load().Dropped != 0 {
		t.Errorf("as fast as it goes: %d sent, %d dropped; want 6 and 0", ops, res.Totals.Load().Dropped)
	}
}
