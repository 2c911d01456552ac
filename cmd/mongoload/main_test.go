package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/testserver"
)

// The test binary runs main itself when asked, so that signals reach the
// real signal handling.
func TestMain(m *testing.M) {
	if os.Getenv("MONGOLOAD_RUN_MAIN") == "1" {
		os.Args = append([]string{"mongoload"}, strings.Fields(os.Getenv("MONGOLOAD_ARGS"))...)
		main()
		return
	}
	testserver.Main(m)
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// interruptFrozen runs mongoload against a server it freezes once the live
// line shows operations done, sends Ctrl-C once a whole interval passes with
// none (every worker hangs on the frozen server), and with again, a second
// Ctrl-C once the results file is written; it returns the exit code,
// stderr, the results file and how long the process took after the first
// Ctrl-C. Each step waits for its event, never for a fixed time.
func interruptFrozen(t *testing.T, again bool) (code int, stderr, out string, took time.Duration) {
	t.Helper()
	srv := testserver.OwnServer(t)
	out = filepath.Join(t.TempDir(), "r.json")
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "MONGOLOAD_RUN_MAIN=1",
		"MONGOLOAD_ARGS=run --uri "+srv.URI+" --seed 200 --duration 60s --concurrency 4 --out "+out)
	var errb syncBuffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	testserver.Await(t, time.Minute, "a live interval with operations", func() bool { return testserver.Busy(errb.String(), 1) })
	srv.Pause()
	before := len(testserver.LiveProgress(errb.String()))
	testserver.Await(t, time.Minute, "a live interval with no operation after the pause", func() bool {
		ps := testserver.LiveProgress(errb.String())
		return len(ps) > before && ps[len(ps)-1].OpsPerSec == 0
	})
	start := time.Now()
	_ = cmd.Process.Signal(os.Interrupt)
	if again {
		testserver.Await(t, time.Minute, "the results file", func() bool { _, err := os.Stat(out); return err == nil })
		_ = cmd.Process.Signal(os.Interrupt)
	}
	err := cmd.Wait()
	took = time.Since(start)
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			code = 128 + int(ws.Signal())
		}
	}
	srv.Resume()
	return code, errb.String(), out, took
}

// TestFaultInterruptFrozenServer: Ctrl-C on a frozen server says it is
// finishing, bounds every step after the phase, writes the results and
// exits 20 within seconds (it waited ~19 s, silently, before).
func TestFaultInterruptFrozenServer(t *testing.T) {
	testserver.Timing(t)
	code, stderr, out, took := interruptFrozen(t, false)
	t.Logf("exit %d after %s\n%s", code, took, stderr)
	if code != 20 {
		t.Errorf("exit %d, want 20", code)
	}
	if !strings.Contains(stderr, "finishing: writing results; Ctrl-C again to stop without them") {
		t.Error("no finishing line")
	}
	// Post-run budget 3s, closing 0.5s, and the process's own start and end.
	if took > 6*time.Second {
		t.Errorf("took %s after Ctrl-C", took)
	}
	res, err := results.ReadJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != results.Interrupted || res.Totals.Operations == 0 {
		t.Errorf("outcome %s, %d operations", res.Outcome, res.Totals.Operations)
	}
	if res.Faults == nil || res.Faults.Abandoned != 4 {
		t.Errorf("faults %+v: want the 4 workers' operations abandoned in flight", res.Faults)
	}
}

// TestFaultSecondInterrupt: a second Ctrl-C while finishing exits 130 at
// once, and the results were written before the steps that need the server.
func TestFaultSecondInterrupt(t *testing.T) {
	testserver.Timing(t)
	code, stderr, out, took := interruptFrozen(t, true)
	t.Logf("exit %d after %s\n%s", code, took, stderr)
	if code != 130 || !strings.Contains(stderr, "interrupted again: stopped without writing the results") {
		t.Errorf("exit %d; want 130 and the line saying so", code)
	}
	if took > 2*time.Second {
		t.Errorf("took %s after the first Ctrl-C", took)
	}
	res, err := results.ReadJSON(out)
	if err != nil {
		t.Fatalf("no results written before the post-run steps: %v", err)
	}
	if res.Outcome != results.Interrupted || res.Totals.Operations == 0 {
		t.Errorf("outcome %s, %d operations", res.Outcome, res.Totals.Operations)
	}
}
