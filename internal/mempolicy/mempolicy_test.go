package mempolicy

import (
	"math"
	"runtime/debug"
	"testing"
)

func ptr[T any](v T) *T { return &v }

// TestSize: the limit and GOGC sized from the run, worked out by hand from
// the documented sizes, and what the user set kept as set.
func TestSize(t *testing.T) {
	const mib = 1 << 20
	ycsb8 := Run{Workers: 8, Histograms: 12} // YCSB A on 2 cores: 2 ops × (2 shards + 3 pooled + totals)
	ycsb1000 := Run{Workers: 1000, Histograms: 12}
	tests := []struct {
		name      string
		run       Run
		limit     *int64
		gogc      *int
		wantLimit int64
		wantGC    int
		sized     [2]bool
	}{
		// live = 3 MiB + 8 × 8 KiB + 12 × 190 KiB = 5.29 MiB; 2 × live + 48 MiB = 58.6 -> 59 MiB;
		// 100 × (59 / 5.29 − 1) = 1015 -> capped at 1,000.
		{"8 workers", ycsb8, nil, nil, 59 * mib, 1000, [2]bool{true, true}},
		// live = 3 + 7.8125 + 2.2266 = 13.04 MiB; 2 × live + 48 = 74.08 -> 75 MiB; 100 × (75 / 13.04 − 1) = 475.
		{"1,000 workers", ycsb1000, nil, nil, 75 * mib, 475, [2]bool{true, true}},
		// The user's limit, GOGC tuned under it: 100 × (128 / 5.29 − 1) capped at 1,000.
		{"limit set", ycsb8, ptr(int64(128 * mib)), nil, 128 * mib, 1000, [2]bool{false, true}},
		// 100 × (20 / 13.04 − 1) = 53: never below Go's default 100.
		{"small limit set", ycsb1000, ptr(int64(20 * mib)), nil, 20 * mib, 100, [2]bool{false, true}},
		// No limit: nothing to tune under, Go's default.
		{"limit off", ycsb8, ptr(int64(Unlimited)), nil, Unlimited, 100, [2]bool{false, true}},
		{"gogc set", ycsb8, nil, ptr(300), 59 * mib, 300, [2]bool{true, false}},
		{"gogc off", ycsb8, nil, ptr(Off), 59 * mib, Off, [2]bool{true, false}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := Size(tc.run, tc.limit, tc.gogc)
			if p.LimitBytes != tc.wantLimit || p.GCPercent != tc.wantGC || p.LimitSized != tc.sized[0] || p.GCSized != tc.sized[1] {
				t.Errorf("Size = %+v (limit %s), want limit %s GOGC %d sized %v", p, LimitString(p.LimitBytes), LimitString(tc.wantLimit), tc.wantGC, tc.sized)
			}
		})
	}
}

// TestParse: GOMEMLIMIT's and GOGC's own syntax, and a one-line error
// naming the fix for anything else.
func TestParse(t *testing.T) {
	limits := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"96MiB", 96 << 20, true},
		{"1GiB", 1 << 30, true},
		{"500000B", 500000, true},
		{"123456", 123456, true},
		{"off", Unlimited, true},
		{"OFF", Unlimited, true},
		{"96MB", 0, false}, // Go's units are binary: MiB
		{"-1", 0, false},
		{"0", 0, false},
		{"99999999TiB", 0, false}, // overflows
	}
	for _, tc := range limits {
		got, err := ParseLimit(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseLimit(%q) = %d, %v; want %d ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
	gcs := []struct {
		in   string
		want int
		ok   bool
	}{{"200", 200, true}, {"off", Off, true}, {"0", 0, false}, {"fast", 0, false}}
	for _, tc := range gcs {
		got, err := ParseGOGC(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseGOGC(%q) = %d, %v; want %d ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
	for _, n := range []int64{59 << 20, 123457, Unlimited} {
		if back, err := ParseLimit(LimitString(n)); err != nil || back != n {
			t.Errorf("LimitString(%d) = %q reads back as %d, %v", n, LimitString(n), back, err)
		}
	}
}

// TestApply: the runtime runs under the policy (read back from the
// runtime itself, not from the policy).
func TestApply(t *testing.T) {
	oldLimit, oldGC := debug.SetMemoryLimit(-1), debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetMemoryLimit(oldLimit); debug.SetGCPercent(oldGC) })
	Policy{LimitBytes: 77 << 20, GCPercent: 345}.Apply()
	if got := debug.SetMemoryLimit(-1); got != 77<<20 {
		t.Errorf("memory limit %d, want %d", got, 77<<20)
	}
	if got := debug.SetGCPercent(345); got != 345 {
		t.Errorf("GOGC %d, want 345", got)
	}
	prev := Policy{LimitBytes: Unlimited, GCPercent: Off}.Apply()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("memory limit %d, want none", got)
	}
	if prev.LimitBytes != 77<<20 || prev.GCPercent != 345 {
		t.Errorf("Apply returned %+v, want the policy it replaced (77 MiB, 345)", prev)
	}
	prev.Apply()
	if limit, gc := debug.SetMemoryLimit(-1), debug.SetGCPercent(345); limit != 77<<20 || gc != 345 {
		t.Errorf("restored limit %d GOGC %d, want 77 MiB and 345", limit, gc)
	}
}
