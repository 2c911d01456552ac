package procstat

import (
	"testing"
	"time"
)

// TestReadCountsWork: burning CPU shows up as CPU time, and RSS is known.
func TestReadCountsWork(t *testing.T) {
	// Spin until the process has been charged 30ms of CPU (however long a
	// busy machine takes to give it that), within a generous bound.
	u0 := Read()
	deadline := time.Now().Add(10 * time.Second)
	x := 0
	u := u0
	for cpu, _ := u.Since(u0); cpu < 30*time.Millisecond; cpu, _ = u.Since(u0) {
		if time.Now().After(deadline) {
			t.Fatalf("no CPU time counted after 10s of spinning (x=%d)", x)
		}
		for i := 0; i < 1e6; i++ {
			x++
		}
		u = Read()
	}
	if _, wall := u.Since(u0); wall <= 0 {
		t.Fatalf("wall time %s", wall)
	}
	if u.MaxRSS < 1<<20 {
		t.Fatalf("max RSS %d bytes", u.MaxRSS)
	}
	if ut := u.Utilization(u0); ut <= 0 || ut > 1.01 {
		t.Fatalf("utilization %f", ut)
	}
}
