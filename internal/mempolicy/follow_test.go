package mempolicy

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestFollowerKeepsGoalAboveGosDefault: a live heap far above the sized
// limit's estimate must raise the limit to at least twice the live heap
// (Go's default heap goal), so the policy never collects more often than
// Go's defaults would; a limit the user set is never touched.
func TestFollowerKeepsGoalAboveGosDefault(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(prev)
	p := Policy{LimitBytes: 64 << 20, GCPercent: 400, LimitSized: true, GCSized: true}
	old := p.Apply()
	defer old.Apply()
	live := make([][]byte, 0, 96)
	for range 96 { // 96 MiB live, more than the 64 MiB limit
		live = append(live, make([]byte, 1<<20))
	}
	runtime.GC()
	f := Follow(p, 10*time.Millisecond)
	deadline := time.Now().Add(5 * time.Second)
	for debug.SetMemoryLimit(-1) < 2*96<<20 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	raised := f.Stop()
	if got := debug.SetMemoryLimit(-1); got < 2*96<<20 || raised != got {
		t.Errorf("limit %d MiB (reported raised to %d MiB) with %d MiB live: want at least twice the live heap", got>>20, raised>>20, len(live))
	}
	runtime.KeepAlive(live)
	if f := Follow(Policy{LimitBytes: 64 << 20, LimitSized: false}, time.Millisecond); f != nil {
		t.Error("a limit the user set must not be followed")
	}
	if Floor(10<<20) != 68<<20 {
		t.Errorf("Floor(10 MiB) = %d MiB, want 2 x 10 + 48", Floor(10<<20)>>20)
	}
}
