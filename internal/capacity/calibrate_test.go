package capacity

import (
	"testing"

	"github.com/mongoload/mongoload/internal/results"
)

func pt(level, cpu float64) results.CalibrationPoint {
	return results.CalibrationPoint{Level: level, CPU: cpu}
}

// TestCalibrationNext protects the calibration's rule: double below the
// target, halve above it, interpolate between, stop within the tolerance
// or when no level is left between the two around the target.
func TestCalibrationNext(t *testing.T) {
	p := CalibrationPolicy{Target: 0.8, Tolerance: 0.05, Whole: true, MaxPoints: 6}
	tests := []struct {
		name   string
		points []results.CalibrationPoint
		want   CalibrationDecision
	}{
		// everything below the target: double the highest level
		{"climb", []results.CalibrationPoint{pt(4, 0.2), pt(8, 0.4)}, CalibrationDecision{Level: 16}},
		// doubling bought less than half the tolerance of CPU: a plateau below the target
		{"plateau", []results.CalibrationPoint{pt(4, 0.4), pt(8, 0.42)}, CalibrationDecision{Done: true, Best: 1, Plateau: true}},
		// everything above: halve the lowest
		{"descend", []results.CalibrationPoint{pt(16, 0.95)}, CalibrationDecision{Level: 8}},
		// between 8 (40%) and 16 (100%): 8 + (0.8-0.4)*8/0.6 = 13.33 -> 13 workers
		{"interpolate", []results.CalibrationPoint{pt(8, 0.4), pt(16, 1.0)}, CalibrationDecision{Level: 13}},
		// within 5 points: done at the nearest
		{"within", []results.CalibrationPoint{pt(8, 0.4), pt(16, 1.0), pt(13, 0.77)}, CalibrationDecision{Done: true, Best: 2}},
		// no whole level left between 12 and 13: done at the nearest
		{"no level left", []results.CalibrationPoint{pt(12, 0.7), pt(13, 0.92)}, CalibrationDecision{Done: true, Best: 0}},
		// more load measured less CPU (noise): stop at the nearest
		{"noise", []results.CalibrationPoint{pt(8, 0.9), pt(16, 0.5)}, CalibrationDecision{Done: true, Best: 0}},
		// the budget ends it
		{"budget", []results.CalibrationPoint{pt(1, 0.1), pt(2, 0.15), pt(4, 0.2), pt(8, 0.3), pt(16, 0.4), pt(32, 0.5)}, CalibrationDecision{Done: true, Best: 5}},
	}
	for _, tt := range tests {
		if got := p.Next(tt.points); got != tt.want {
			t.Errorf("%s: Next = %+v, want %+v", tt.name, got, tt.want)
		}
	}
	// rates keep hundredths below 20 ops/s
	r := CalibrationPolicy{Target: 0.5, Tolerance: 0.01, MaxPoints: 6}
	if got := r.Next([]results.CalibrationPoint{pt(10, 0.4), pt(11, 0.6)}); got.Level != 10.5 {
		t.Errorf("rate interpolation: %+v, want 10.5", got)
	}
}
