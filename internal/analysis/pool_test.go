package analysis

import (
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/report"
	rt "github.com/mongoload/mongoload/internal/results/resultstest"
)

// TestSweepBlamesTheClientPool: with a pool of 2 connections, workers 4 to
// 16 only queue inside the client: throughput stays that of 2 workers and
// latency grows with the queue (Little's law: latency = workers/throughput).
// The verdict must name the client's pool, not the server, and flag every
// level above 2.
func TestSweepBlamesTheClientPool(t *testing.T) {
	const pool, tput = 2, 400.0
	var steps []rt.Step
	for _, w := range []float64{1, 2, 4, 8, 16} {
		done := tput * min(w, pool) / pool
		steps = append(steps, rt.Step{Level: w, Throughput: done, LatencyMs: 1000 * w / done})
	}
	sw := rt.Sweep("concurrency", "pool", steps)
	for i := range sw.Steps {
		sw.Steps[i].Result.Load.MaxInFlight = pool
	}
	a, err := AnalyseSweep(sw, DefaultSweepOptions())
	if err != nil {
		t.Fatal(err)
	}
	if a.Limit.Kind != "client-pool" || !strings.Contains(a.Limit.Text, "connection pool") || strings.Contains(a.Limit.Text, "the server (") {
		t.Errorf("limit %+v: want the client's pool", a.Limit)
	}
	for _, f := range a.Steps {
		if want := f.Level > pool; f.AboveInFlightLimit != want || (want && f.InFlightLimit != pool) {
			t.Errorf("%g workers: above the limit %v (limit %d), want %v", f.Level, f.AboveInFlightLimit, f.InFlightLimit, want)
		}
	}
	sw.Analysis = a
	var b strings.Builder
	if err := report.WriteSweepConsole(&b, sw); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "queued in the client: above its 2 in-flight places") || !strings.Contains(b.String(), "Limit: the client's connection pool") {
		t.Errorf("the sweep report must flag the steps and name the pool:\n%s", b.String())
	}
}

// TestSweepBlamesABusyScheduler: when the open-loop scheduler, one
// goroutine, was busy all the time at the saturation point, the verdict
// names it, although the client's CPU share (of 2 cores) stayed at half.
func TestSweepBlamesABusyScheduler(t *testing.T) {
	var steps []rt.Step
	for _, r := range []float64{1000, 2000, 4000, 8000} {
		steps = append(steps, rt.Step{Level: r, Throughput: min(r, 2000), LatencyMs: 1, ClientCPU: 0.5})
	}
	sw := rt.Sweep("rate", "scheduler", steps)
	for i := range sw.Steps {
		if sw.Steps[i].Level >= 2000 {
			sw.Steps[i].Result.Client.SchedulerBusy = 0.97
		}
	}
	a, err := AnalyseSweep(sw, DefaultSweepOptions())
	if err != nil {
		t.Fatal(err)
	}
	if a.Limit.Kind != "client-scheduler" || !strings.Contains(a.Limit.Text, "busy 97%") {
		t.Errorf("limit %+v: want the scheduler", a.Limit)
	}
}
