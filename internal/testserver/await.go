package testserver

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Await polls cond every few milliseconds until it holds, and fails t if
// it does not within the given time. A test waits for an event this way:
// never for a fixed time (too short on a busy machine, too long on a quiet
// one), and never without a bound. Call it from the test's goroutine.
func Await(t testing.TB, within time.Duration, what string, cond func() bool) {
	t.Helper()
	if !Poll(within, cond) {
		t.Fatalf("waited %s for %s", within, what)
	}
}

// Poll is Await for a goroutine that is not the test's: it reports whether
// cond held within the given time instead of failing the test.
func Poll(within time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(2 * time.Millisecond)
	}
	return true
}

// Progress is one interval of a run's live line on stderr: a progress
// event that a fault test can strike on.
type Progress struct {
	Second    int     // seconds since the measured phase began, as the line shows them
	OpsPerSec float64 // the interval's rate
}

var liveLine = regexp.MustCompile(`(?m)^\[\s*(\d+)s\]\s+([\d,]+) ops/s`)

// LiveProgress returns the live lines in a run's stderr, in order.
func LiveProgress(stderr string) []Progress {
	var ps []Progress
	for _, m := range liveLine.FindAllStringSubmatch(stderr, -1) {
		s, _ := strconv.Atoi(m[1])
		r, _ := strconv.ParseFloat(strings.ReplaceAll(m[2], ",", ""), 64)
		ps = append(ps, Progress{Second: s, OpsPerSec: r})
	}
	return ps
}

// Busy reports whether stderr shows at least n live intervals with
// operations done: the measured phase is provably under way.
func Busy(stderr string, n int) bool {
	busy := 0
	for _, p := range LiveProgress(stderr) {
		if p.OpsPerSec > 0 {
			busy++
		}
	}
	return busy >= n
}
