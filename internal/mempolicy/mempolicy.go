// Package mempolicy is mongoload's memory policy: a soft memory limit
// (runtime/debug.SetMemoryLimit) sized from the run, and the collector's
// GOGC tuned under it, instead of Go's default (no limit, GOGC=100).
//
// Why: a load generator's live heap is small (2 MB at 8 workers, 4 MB at
// 1,000: histograms, requests, the driver's pool) while the driver
// allocates some 6-14 KB per operation. Under GOGC=100 the heap goal is
// about twice that small live heap, so the collector runs dozens of times
// a second and costs 10-20% of the client's CPU per operation
// (docs/performance.md). A goal sized from the run lets it run about once
// a second instead, for a bounded and predictable amount of memory; the
// limit keeps a heap larger than expected from growing without bound.
package mempolicy

import (
	"fmt"
	"math"
	"runtime/debug"
	"strconv"
	"strings"
)

// Sizes of what a run keeps, as measured (go test -bench Operations and
// GODEBUG=gctrace=1 on runs of 8 and 1,000 workers), rounded up.
const (
	baseLive      = 3 << 20   // runtime, driver, topology, results: a run's live heap before workers
	perWorker     = 8 << 10   // a worker's goroutine stack, generator state and request buffers
	perSession    = 4 << 10   // a think-time session's state (workers are counted apart)
	perHistogram  = 190 << 10 // one HDR histogram, 1 µs to 1 h at 3 significant digits
	headroom      = 48 << 20  // the limit's margin over twice the live heap
	minGCPercent  = 100       // never collect more often than Go's default
	maxGCPercent  = 1000      // nor let a tiny heap grow a hundredfold before a first collection
	defaultGOGC   = 100       // Go's own default, what the policy replaces
	unlimitedText = "off"
)

// Unlimited is the memory limit that means none (math.MaxInt64, as Go's).
const Unlimited = math.MaxInt64

// Off is the GOGC that turns the proportional collector off (the limit
// alone then triggers collections), as GOGC=off does.
const Off = -1

// Run is what a run keeps in memory, for sizing.
type Run struct {
	Workers    int // goroutines that execute operations
	Sessions   int // think-time sessions' states
	Histograms int // latency histograms held at once (shards, intervals in flight, totals)
}

// Policy is the collector's setting for a run.
type Policy struct {
	LimitBytes int64 // the soft memory limit; Unlimited for none
	GCPercent  int   // GOGC; Off for none
	// LimitSized and GCSized are true when the value was sized from the
	// run, false when the user set it (flag, environment, file).
	LimitSized, GCSized bool
}

// Live estimates the live heap of r.
func Live(r Run) int64 {
	return baseLive + int64(r.Workers)*perWorker + int64(r.Sessions)*perSession + int64(r.Histograms)*perHistogram
}

// Size returns the policy for r, keeping what the user set: limit and
// gcPercent are nil when unset. The sized limit is twice the estimated
// live heap plus a fixed margin, in whole MiB (59 MiB for YCSB A at 8
// workers on 2 cores, 75 MiB at 1,000 worker goroutines); GOGC is then
// set so that the heap goal at the estimated live heap is the limit:
// 100 × (limit / live − 1), between 100 and 1,000 (1,000 and 475 there). A live heap above the
// estimate reaches the limit sooner, and the limit, not GOGC, triggers
// the collections; one below it is collected before the limit.
func Size(r Run, limit *int64, gcPercent *int) Policy {
	live := Live(r)
	sized := (2*live + headroom + 1<<20 - 1) &^ (1<<20 - 1) // whole MiB
	p := Policy{LimitBytes: sized, LimitSized: true, GCSized: true}
	if limit != nil {
		p.LimitBytes, p.LimitSized = *limit, false
	}
	if gcPercent != nil {
		p.GCPercent, p.GCSized = *gcPercent, false
		return p
	}
	if p.LimitBytes == Unlimited {
		p.GCPercent = defaultGOGC // no limit to tune under: Go's default
		return p
	}
	g := 100 * (float64(p.LimitBytes)/float64(live) - 1)
	p.GCPercent = int(math.Max(minGCPercent, math.Min(maxGCPercent, g)))
	return p
}

// Apply sets the policy for the whole process and returns the one it
// replaces, to restore when the run is over (a process that runs more
// than the run, such as a test binary, keeps its own setting).
func (p Policy) Apply() (previous Policy) {
	return Policy{LimitBytes: debug.SetMemoryLimit(p.LimitBytes), GCPercent: debug.SetGCPercent(p.GCPercent)}
}

// ParseLimit reads a memory limit as GOMEMLIMIT does: a number of bytes
// with an optional unit (B, KiB, MiB, GiB, TiB), or "off".
func ParseLimit(s string) (int64, error) {
	t := strings.TrimSpace(s)
	if strings.EqualFold(t, unlimitedText) {
		return Unlimited, nil
	}
	units := []struct {
		suffix string
		shift  uint
	}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}, {"B", 0}}
	num, shift := t, uint(0)
	for _, u := range units {
		if strings.HasSuffix(t, u.suffix) {
			num, shift = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.shift
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 || n > Unlimited>>shift {
		return 0, fmt.Errorf("%q is not a memory limit: give a size such as 96MiB or 1GiB (units B, KiB, MiB, GiB, TiB), or off", s)
	}
	return n << shift, nil
}

// ParseGOGC reads a GOGC value as Go does: a percentage, or "off".
func ParseGOGC(s string) (int, error) {
	t := strings.TrimSpace(s)
	if strings.EqualFold(t, unlimitedText) {
		return Off, nil
	}
	n, err := strconv.Atoi(t)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%q is not a GOGC value: give a percentage such as 200, or off", s)
	}
	return n, nil
}

// LimitString writes a limit as ParseLimit reads it (MiB when whole).
func LimitString(n int64) string {
	switch {
	case n == Unlimited:
		return unlimitedText
	case n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + "MiB"
	}
	return strconv.FormatInt(n, 10) + "B"
}

// GOGCString writes a GOGC value as ParseGOGC reads it.
func GOGCString(n int) string {
	if n < 0 {
		return unlimitedText
	}
	return strconv.Itoa(n)
}
