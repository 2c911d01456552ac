package cli

import (
	"context"
	"math"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/testserver"
)

// openLoopRun runs the minimal workload open-loop against the server with
// process pid, and pauses that server (SIGSTOP) for one second once the
// live line shows the measured phase four seconds in: a progress event,
// however long the start took on a busy machine.
func openLoopRun(t *testing.T, uri string, pid int, args ...string) *results.Result {
	t.Helper()
	p := writeFile(t, "w.yaml", minimal)
	out := filepath.Join(t.TempDir(), "r.json")
	base := []string{"run", p, "--uri", uri, "--out", out, "--warmup", "1s", "--duration", "10s"}
	r := runInBackground(context.Background(), append(base, args...)...)
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGCONT) })
	testserver.Await(t, time.Minute, "the live line at 4s", func() bool {
		ps := testserver.LiveProgress(r.stderr.String())
		return len(ps) > 0 && ps[len(ps)-1].Second >= 4
	})
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatalf("SIGSTOP: %v", err)
	}
	time.Sleep(time.Second) // the stall itself
	_ = syscall.Kill(pid, syscall.SIGCONT)
	code, stdout, stderr := r.wait()
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	res, err := results.ReadJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", stdout)
	return res
}

func ms(us int64) float64 { return float64(us) / 1000 }

// TestStallShowsInResponseTime is the proof that open-loop latency is free of
// coordinated omission. The server is paused for S = 1s in the middle of a
// D = 10s run at R = 500 ops/s. The R*S operations due during the pause wait
// from their scheduled time until it ends: their response times spread
// evenly over [0, S], and they are S/D = 10% of all operations. So the share
// of operations slower than L < S is 10% * (1 - L/S): p99 = 0.9s, p95 = 0.5s.
// Only the few operations already on the wire (the pool has 4 connections)
// are slow from their actual send, so service time's p99 stays normal.
func TestStallShowsInResponseTime(t *testing.T) {
	testserver.Timing(t)
	uri, pid := testserver.Own(t)
	if code, _, stderr := runCLI(t, context.Background(), nil, "load", writeFile(t, "w.yaml", minimal), "--uri", uri, "--documents", "1000"); code != 0 {
		t.Fatal(stderr)
	}
	res := openLoopRun(t, uri, pid, "--rate", "500", "--max-in-flight", "2000", "--max-pool-size", "4")
	op := res.Operations[0]
	resp, err := op.LatencyHistogram()
	if err != nil {
		t.Fatal(err)
	}
	service, err := op.ServiceTimeHistogram()
	if err != nil {
		t.Fatal(err)
	}
	p99, p95, sp99 := ms(resp.ValueAtQuantile(99)), ms(resp.ValueAtQuantile(95)), ms(service.ValueAtQuantile(99))
	t.Logf("response p95 %.0fms p99 %.0fms (predicted 500, 900); service p99 %.1fms", p95, p99, sp99)
	// Tolerances: after the pause the server also drains the backlog through
	// 4 connections, which adds a little to the operations due just after it.
	if p99 < 800 || p99 > 1300 {
		t.Errorf("response p99 %.0fms, predicted 900ms", p99)
	}
	if p95 < 400 || p95 > 800 {
		t.Errorf("response p95 %.0fms, predicted 500ms", p95)
	}
	if sp99 > 100 {
		t.Errorf("service p99 %.1fms: the pause leaked into service time", sp99)
	}
	s := res.Schedule
	if s == nil || s.Dropped != 0 || math.Abs(s.AchievedRate-500)/500 > 0.01 {
		t.Errorf("schedule %+v: want 500 ops/s achieved to 1%% and nothing dropped", s)
	}
}

// TestStallDropsBeyondMaxInFlight: with at most 50 operations in flight, a
// 1s pause at 500 ops/s fills the 50 places within 0.1s and the remaining
// ~450 operations due during the pause are dropped and counted. A few more
// may drop just after it while the backlog drains (more on a busy machine),
// never fewer.
func TestStallDropsBeyondMaxInFlight(t *testing.T) {
	testserver.Timing(t)
	uri, pid := testserver.Own(t)
	if code, _, stderr := runCLI(t, context.Background(), nil, "load", writeFile(t, "w.yaml", minimal), "--uri", uri, "--documents", "1000"); code != 0 {
		t.Fatal(stderr)
	}
	res := openLoopRun(t, uri, pid, "--rate", "500", "--max-in-flight", "50")
	s := res.Schedule
	if s == nil {
		t.Fatal("no schedule in an open-loop result")
	}
	t.Logf("scheduled %d, dropped %d (predicted ~450), late %d, achieved %.1f ops/s", s.Scheduled, s.Dropped, s.Late, s.AchievedRate)
	if s.Dropped < 400 || s.Dropped > 650 {
		t.Errorf("dropped %d, predicted about 450", s.Dropped)
	}
	if math.Abs(float64(s.Scheduled)-5000) > 50 {
		t.Errorf("scheduled %d in 10s at 500/s", s.Scheduled)
	}
	done := res.Totals.Operations + res.Totals.Errors
	if done+s.Dropped < s.Scheduled-60 || done+s.Dropped > s.Scheduled+60 {
		t.Errorf("done %d + dropped %d != scheduled %d", done, s.Dropped, s.Scheduled)
	}
}
