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
