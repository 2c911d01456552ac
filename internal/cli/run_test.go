package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/testserver"
)

// uniqueDB gives each test its own database so runs never meet.
func uniqueDB(t *testing.T, workload string) string {
	db := fmt.Sprintf("ml_%s_%d", strings.ToLower(strings.ReplaceAll(t.Name(), "/", "_")), time.Now().UnixNano()%1e6)
	return writeFile(t, "w.yaml", strings.ReplaceAll(workload, "database: mltest", "database: "+db))
}

// TestRunDefaultWorkload runs the built-in default workload end to end and
// checks that every operation of the mix ran without errors and that the
// results file carries what the console showed.
func TestRunDefaultWorkload(t *testing.T) {
	uri := testserver.URI(t)
	out := filepath.Join(t.TempDir(), "results.json")
	code, stdout, stderr := runCLI(t, context.Background(), nil, "run", "--uri", uri, "--duration", "3s",
		"--warmup", "500ms", "--seed", "2000", "--concurrency", "4", "--out", out, "--drop")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	res, err := results.ReadJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != results.Completed || len(res.Operations) != 10 {
		t.Fatalf("outcome %s with %d operations", res.Outcome, len(res.Operations))
	}
	for _, op := range res.Operations {
		if op.Count == 0 || op.Errors > 0 {
			t.Errorf("%s: %d operations, errors %v", op.Name, op.Count, op.Errors)
		}
		if !strings.Contains(stdout, op.Name) {
			t.Errorf("console report lacks %s", op.Name)
		}
	}
	// The phase lasts its duration and at most the grace period (5s by
	// default) more, which operations in flight at its end may take: on a
	// busy machine they do (7.3s was seen under a load average of 33).
	if d := res.DurationSeconds; d < 2.9 || d > 3+5 {
		t.Errorf("measured %.2fs of a 3s run with a 5s grace period", d)
	}
	if len(res.Intervals) < 3 {
		t.Errorf("%d intervals in a 3s run at 1s", len(res.Intervals))
	}
	if !strings.Contains(stderr, "seed airline.flights: 2000/2000") {
		t.Errorf("no seeding progress line:\n%s", stderr)
	}
}

// TestRunOperationsCount stops after exactly the number of operations asked.
func TestRunOperationsCount(t *testing.T) {
	uri := testserver.URI(t)
	p := uniqueDB(t, minimal)
	out := filepath.Join(t.TempDir(), "r.json")
	code, _, stderr := runCLI(t, context.Background(), nil, "run", p, "--uri", uri, "--operations", "500",
		"--duration", "0", "--seed", "100", "--concurrency", "3", "--out", out, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	res, err := results.ReadJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	if res.Totals.Operations != 500 {
		t.Fatalf("%d operations, want 500", res.Totals.Operations)
	}
}

// TestRunInterrupted: Ctrl-C ends the run cleanly, reports and writes what
// was measured, and exits with the interrupted code.
func TestRunInterrupted(t *testing.T) {
	uri := testserver.URI(t)
	p := uniqueDB(t, minimal)
	out := filepath.Join(t.TempDir(), "r.json")
	ctx, cancel := context.WithCancel(context.Background())
	r := runInBackground(ctx, "run", p, "--uri", uri, "--duration", "60s", "--seed", "100", "--out", out)
	testserver.Await(t, time.Minute, "a live interval with operations", r.busy(1)) // then Ctrl-C
	cancel()
	code, stdout, stderr := r.wait()
	if code != ExitInterrupted {
		t.Fatalf("exit %d, want %d: %s", code, ExitInterrupted, stderr)
	}
	res, err := results.ReadJSON(out)
	if err != nil {
		t.Fatalf("no results after an interrupt: %v", err)
	}
	if res.Outcome != results.Interrupted || res.Totals.Operations == 0 {
		t.Fatalf("outcome %s, %d operations", res.Outcome, res.Totals.Operations)
	}
	if !strings.Contains(stdout, "TOTAL") || !strings.Contains(stderr, "interrupted") {
		t.Fatalf("no report or no reason:\n%s\n%s", stdout, stderr)
	}
	// The outcome is said once, with what interrupted it.
	if !strings.Contains(stdout, "outcome:  interrupted: Ctrl-C or a signal") || strings.Contains(stdout, "interrupted: interrupted") {
		t.Errorf("outcome line:\n%s", stdout)
	}
}

// TestRunServerLost: a server that goes away mid-run ends it within the
// timeout, with the results so far reported and written.
func TestRunServerLost(t *testing.T) {
	testserver.URI(t) // skips when integration tests are off
	script, err := testserver.Script()
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("lost-%d", os.Getpid())
	raw, err := exec.Command(script, "start", name).Output()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = exec.Command(script, "stop", name).Run() })
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	uri := lines[len(lines)-1]
	out := filepath.Join(t.TempDir(), "r.json")
	r := runInBackground(context.Background(), "run", writeFile(t, "w.yaml", minimal), "--uri", uri,
		"--duration", "60s", "--seed", "100", "--out", out, "--server-selection-timeout", "1s")
	testserver.Await(t, time.Minute, "a live interval with operations", r.busy(1)) // then the server goes
	_ = exec.Command(script, "stop", name).Run()
	start := time.Now()
	code, stdout, stderr := r.wait()
	if code != ExitServerLost {
		t.Fatalf("exit %d, want %d:\n%s\n%s", code, ExitServerLost, stdout, stderr)
	}
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("took %s to notice the server was gone", took)
	}
	res, err := results.ReadJSON(out)
	if err != nil {
		t.Fatalf("no results after the server went away: %v", err)
	}
	if res.Outcome != results.ServerLost || res.Totals.Operations == 0 {
		t.Fatalf("outcome %s, %d operations", res.Outcome, res.Totals.Operations)
	}
}
