package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/testserver"
)

// TestRunReportsMeasuredMemory: a run's results file holds the measured
// phase's own peak RSS beside the process-lifetime peak and the peak
// before the phase (seeding): on Linux exact, from the kernel's reset peak
// (procstat's TestMeasuredPeakLeavesSetupOut proves the reset against
// memory of known size). The lifetime peak bounds both, and seeding 20,000
// documents per collection, which takes far more memory than 4 workers
// running for a second, stays out of the measured phase's peak.
// It runs mongoload as its own process: inside a test binary that has run
// other tests the peaks are that binary's, not a run's. Go's default
// collector (--gogc 100, no limit) keeps the premise: the sized memory
// policy lets the measured heap grow past the seeding peak by design.
// The race detector's shadow memory is never given back, so the seeding
// peak cannot stay out of the measured one there: the test runs in make
// test's second pass, without -race (it failed 1 run in 3 under -race).
func TestRunReportsMeasuredMemory(t *testing.T) {
	testserver.Timing(t)
	uri := testserver.Fresh(t).URI // seeding and the phase timed on a server no earlier test has aged
	out := filepath.Join(t.TempDir(), "r.json")
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "MONGOLOAD_RUN_MAIN=1",
		"MONGOLOAD_ARGS=run --uri "+uri+" --duration 1s --warmup 200ms --seed 20000 --concurrency 4 --out "+out+
			" --drop --quiet --gogc 100 --memory-limit off")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	res, err := results.ReadJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	c := res.Client
	if c == nil || c.MeasuredPeakRSSBytes <= 0 || c.SetupPeakRSSBytes <= 0 || c.MeasuredPeakRSSBytes > c.MaxRSSBytes || c.SetupPeakRSSBytes > c.MaxRSSBytes {
		t.Fatalf("client %+v: want measured and setup peaks, both within the lifetime peak", c)
	}
	if runtime.GOOS == "linux" && (!c.MeasuredPeakRSSExact || c.MeasuredPeakRSSBytes >= c.SetupPeakRSSBytes) {
		t.Errorf("on Linux the measured peak comes from the kernel's reset peak and leaves seeding out: %+v", c)
	}
	if c.AvailableCPU <= 0 || c.AvailableCPU > float64(runtime.NumCPU()) {
		t.Errorf("available CPU %g on %d CPUs", c.AvailableCPU, runtime.NumCPU())
	}
}
