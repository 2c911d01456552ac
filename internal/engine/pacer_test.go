package engine

import (
	"testing"
	"time"
)

func TestScheduleAt(t *testing.T) {
	ramp := NewSchedule([]Stage{{Duration: time.Second, Target: 10}, {Duration: time.Second, Target: 0}, {Duration: 2 * time.Second, Target: 100}})
	tests := []struct {
		name string
		s    *Schedule
		n    int64
		want time.Duration
		ok   bool
	}{
		{"first op at the start", NewSchedule([]Stage{{Target: 1000}}), 0, 0, true},
		{"fixed gap 1/rate", NewSchedule([]Stage{{Target: 1000}}), 5000, 5 * time.Second, true},
		{"last op of stage one", ramp, 9, 900 * time.Millisecond, true},
		{"a stage at 0 is a pause", ramp, 10, 2 * time.Second, true},
		{"stage three at 100/s", ramp, 60, 2*time.Second + 500*time.Millisecond, true},
		{"after the last stage", ramp, 210, 0, false},
	}
	for _, tt := range tests {
		got, ok := tt.s.At(tt.n)
		if ok != tt.ok || (ok && absDur(got-tt.want) > time.Microsecond) {
			t.Errorf("%s: At(%d) = %v, %v; want %v, %v", tt.name, tt.n, got, ok, tt.want, tt.ok)
		}
	}
}

// TestScheduleRateOverRun: the number of operations due by the end of the
// ramp is the integral of the rate, exactly.
func TestScheduleRateOverRun(t *testing.T) {
	s := NewSchedule([]Stage{{Duration: 3 * time.Second, Target: 1000}, {Duration: 2 * time.Second, Target: 2500}})
	var n int64
	for {
		if _, ok := s.At(n); !ok {
			break
		}
		n++
	}
	if n != 3000+5000 {
		t.Fatalf("%d operations scheduled, want 8000", n)
	}
}

func TestSchedulePoissonSkipsPauses(t *testing.T) {
	s := NewSchedule([]Stage{{Duration: time.Second, Target: 0}, {Duration: time.Second, Target: 10}})
	next, ok := s.next(0, 1)
	if !ok || next != time.Second+100*time.Millisecond {
		t.Fatalf("next = %v, %v; want 1.1s", next, ok)
	}
	if _, ok := s.next(2*time.Second, 1); ok {
		t.Fatal("an arrival after the last stage")
	}
}

func absDur(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

// TestScheduleRepeating: a repeated curve is due exactly as the same
// curve written out twice, rates and Poisson gaps included, and never ends.
func TestScheduleRepeating(t *testing.T) {
	curve := []Stage{{Duration: time.Second, Target: 10}, {Duration: time.Second, Target: 0}, {Duration: 2 * time.Second, Target: 100}}
	rep := Repeating(curve)
	twice := NewSchedule(append(append([]Stage{}, curve...), curve...))
	for n := int64(0); n < 2*210; n++ {
		got, ok := rep.At(n)
		want, _ := twice.At(n)
		if !ok || absDur(got-want) > time.Microsecond {
			t.Fatalf("At(%d) = %v, %v; the curve written twice says %v", n, got, ok, want)
		}
	}
	if at, ok := rep.At(1_000 * 210); !ok || absDur(at-1000*4*time.Second) > time.Microsecond {
		t.Errorf("the 1,000th cycle starts at %v, %v; want 4000s", at, ok)
	}
	for _, tt := range []struct {
		at   time.Duration
		rate float64
	}{{500 * time.Millisecond, 10}, {5500 * time.Millisecond, 0}, {43500 * time.Millisecond, 100}} {
		if r, ok := rep.RateAt(tt.at); !ok || r != tt.rate {
			t.Errorf("RateAt(%v) = %v, %v; want %v", tt.at, r, ok, tt.rate)
		}
	}
	if next, ok := rep.next(5*time.Second+500*time.Millisecond, 1); !ok || next != 6*time.Second+10*time.Millisecond {
		t.Errorf("a Poisson gap from a pause of the second cycle: %v, %v; want 6.01s", next, ok)
	}
	if once := Repeating([]Stage{{Duration: time.Second, Target: 5}, {Target: 7}}); once.repeat {
		t.Error("a curve ending in a stage with no end repeats")
	}
}
