package procstat

import (
	"testing"
	"time"
)

// TestShare: the utilisation is CPU over wall time over the CPU available,
// computed here from its definition; no time passed is no utilisation.
func TestShare(t *testing.T) {
	avail := AvailableCPU()
	tests := []struct {
		cpu, wall time.Duration
		want      float64
	}{
		{time.Second, 2 * time.Second, 0.5 / avail},
		{3 * time.Second, time.Second, 3 / avail},
		{0, time.Second, 0},
		{time.Second, 0, 0},
		{time.Second, -time.Second, 0},
	}
	for _, tt := range tests {
		if got := Share(tt.cpu, tt.wall); got != tt.want {
			t.Errorf("Share(%v, %v) = %v, want %v", tt.cpu, tt.wall, got, tt.want)
		}
	}
	u0 := Usage{CPU: time.Second, At: time.Unix(100, 0)}
	u := Usage{CPU: 2 * time.Second, At: time.Unix(104, 0)}
	if got, want := u.Utilization(u0), 0.25/avail; got != want {
		t.Errorf("Utilization = %v, want %v", got, want)
	}
}
