package source

import (
	"math"
	"strings"
	"testing"
	"time"
)

// TestLoadAndImpact: two serverStatus readings a second apart, by hand:
// the operations a second leave out capture's own getMores and commands,
// the latency leaves out its reads' time; the impact against a baseline
// is the throughput lost and the latency added, in percent.
func TestLoadAndImpact(t *testing.T) {
	t0 := time.Unix(1000, 0)
	a := opStats{at: t0, ops: map[string]int64{"query": 100, "getmore": 10, "command": 50}, latency: 10_000, latOps: 110, ownN: 2, ownTime: 200 * time.Millisecond}
	b := opStats{at: t0.Add(2 * time.Second), ops: map[string]int64{"query": 2100, "getmore": 14, "command": 90}, latency: 10_000 + 400_000 + 2*100_000, latOps: 110 + 2004 + 2, ownN: 4, ownTime: 400 * time.Millisecond}
	l := loadBetween(a, b)
	// 2000 queries and 4 getMores, 2 of them capture's, over 2 s; the
	// commands (50 → 90) are not the application's.
	if want := (2000.0 + 2) / 2; l.perSec != want {
		t.Errorf("perSec %v, want %v", l.perSec, want)
	}
	// 600 ms of latency, 200 of them capture's reads, over 2004 operations.
	if want := 400_000.0 / 2004; math.Abs(l.latency-want) > 1e-9 {
		t.Errorf("latency %v µs, want %v", l.latency, want)
	}
	base := load{perSec: 1000, latency: 100}
	im := impactOf(base, load{perSec: 700, latency: 250})
	if im.throughput != 30 || im.latency != 150 || !im.latencyKnown || im.harm() != 150 {
		t.Errorf("impact %+v (harm %v), want throughput 30, latency 150", im, im.harm())
	}
	// Throughput falling with latency flat: the application slowing by
	// itself, not a harm.
	if im := impactOf(base, load{perSec: 100, latency: 101}); im.harm() != 1 {
		t.Errorf("an application that slowed by itself: harm %v, want the latency's 1%%", im.harm())
	}
	// Throughput falling with latency up: the larger is the harm.
	if im := impactOf(base, load{perSec: 400, latency: 110}); im.harm() != 60 {
		t.Errorf("harm %v, want the throughput's 60%%", im.harm())
	}
	if got := (impact{throughput: 30, latency: 150, latencyKnown: true}).String(); got != "throughput -30.0%, latency +150.0%" {
		t.Errorf("impact reads %q", got)
	}
}

// TestCompareHeld: a tail that read 400 of the 1000 entries the profiler
// held for the window says so, and its counts are divided by 0.4.
func TestCompareHeld(t *testing.T) {
	p := &Profiled{}
	p.Tally.Read = 400
	src := &Source{}
	p.compareHeld(1000, src)
	if p.heldRatio != 0.4 || len(src.Tally.Lost) != 1 || !strings.Contains(src.Tally.Lost[0], "holds 1000 entries of the window, capture read 400: 600 (60%) lost") {
		t.Errorf("ratio %v, lost %q", p.heldRatio, src.Tally.Lost)
	}
	q := &Profiled{}
	q.Tally.Read = 1000
	src = &Source{}
	q.compareHeld(1000, src)
	if q.heldRatio != 0 || len(src.Tally.Lost) != 0 {
		t.Errorf("all read: ratio %v, lost %q", q.heldRatio, src.Tally.Lost)
	}
}

// TestArrivalsStayBounded: a week of one operation a second keeps at most
// maxArrivalBuckets buckets, and every execution is still counted.
func TestArrivalsStayBounded(t *testing.T) {
	p := &Profiled{}
	const week = 7 * 24 * 3600
	for s := int64(0); s < week; s++ {
		p.arrive(1_700_000_000+s, 1)
	}
	total := 0.0
	for _, n := range p.Arrivals {
		total += n
	}
	if len(p.Arrivals) > maxArrivalBuckets || total != week || p.arrivalWidth != 16 {
		t.Errorf("%d buckets of %d s holding %v executions; want at most %d, all %d", len(p.Arrivals), p.arrivalWidth, total, maxArrivalBuckets, week)
	}
}
