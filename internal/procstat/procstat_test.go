package procstat

import (
	"testing"
	"time"
)

// TestReadCountsWork: burning CPU shows up as CPU time, and RSS is known.
func TestReadCountsWork(t *testing.T) {
	u0 := Read()
	deadline := time.Now().Add(50 * time.Millisecond)
	x := 0
	for time.Now().Before(deadline) {
		x++
	}
	u := Read()
	cpu, wall := u.Since(u0)
	if cpu < 20*time.Millisecond || wall < 50*time.Millisecond {
		t.Fatalf("cpu %s wall %s after 50ms of spinning (x=%d)", cpu, wall, x)
	}
	if u.MaxRSS < 1<<20 {
		t.Fatalf("max RSS %d bytes", u.MaxRSS)
	}
	if ut := u.Utilization(u0); ut <= 0 || ut > 1.01 {
		t.Fatalf("utilization %f", ut)
	}
}
