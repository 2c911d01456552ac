package cli

import (
	"context"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/testserver"
)

const faultWorkload = `
collections:
  - database: mlfault
    name: items
    template:
      k: {$gen: key}
      v: {$gen: int, min: 1, max: 9}
operations:
  - {name: get, type: findOne, weight: 2, filter: {k: {$gen: key}}}
  - {name: put, type: insertOne, weight: 1}
`

// runWithFault runs the fault workload against uri while inject breaks the
// server once the live line shows the measured phase under way; inject
// returns the moment it began to bring the server back. It returns the result, the console
// report, the stderr, the file, and when the fault began and ended.
type faultRun struct {
	res            *results.Result
	stdout, stderr string
	out            string
	fault, back    time.Time
}

func runWithFault(t *testing.T, uri string, model []string, extra []string, inject func() time.Time) *faultRun {
	t.Helper()
	out := filepath.Join(t.TempDir(), "r.json")
	args := append([]string{"run", writeFile(t, "w.yaml", faultWorkload), "--uri", uri, "--out", out,
		"--seed", "500", "--duration", "9s", "--interval", "250ms", "--server-selection-timeout", "2s", "--connect-timeout", "1s"}, model...)
	args = append(args, extra...)
	fr := &faultRun{out: out}
	r := runInBackground(context.Background(), args...)
	// Strike when the run is provably measuring: two intervals (half a
	// second) with operations done, so the telemetry has its baseline.
	testserver.Await(t, time.Minute, "two live intervals with operations", r.busy(2))
	fr.fault = time.Now()
	fr.back = inject()
	var code int
	code, fr.stdout, fr.stderr = r.wait()
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, fr.stdout, fr.stderr)
	}
	res, err := results.ReadJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	fr.res = res
	return fr
}

// TestFaultScenarios breaks the server in three ways under three load
// models and checks that the run measures through the fault and reports
// it: errors classified by cause, an availability gap bounded by the
// fault's own start and end (the oracle is the test's clock around the
// injection), throughput after it, the per-interval error timeline adding
// up to the whole-run counts, no acknowledged write lost, and a complete
// results file that merge accepts.
func TestFaultScenarios(t *testing.T) {
	testserver.Timing(t)
	models := []struct {
		name string
		args []string
	}{
		{"closed", []string{"--concurrency", "4"}},
		{"sessions", []string{"--sessions", "8", "--think-time", "10ms"}},
		{"open", []string{"--rate", "200"}},
	}
	scenarios := []struct {
		name    string
		classes []string // the error classes this fault may cause
		extra   []string
		inject  func(t *testing.T, s *testserver.Server, p *testserver.Proxy) time.Time
	}{
		// The outages outlast the 2s server-selection timeout, so that
		// operations fail rather than wait; shorter ones cost latency only.
		// Restarted at once (a restart takes seconds on a busy machine),
		// with a 1s selection timeout, so that operations fail while it
		// restarts and the run does not give the server up for lost (5s).
		{"killed and restarted", []string{"network", "server-selection", "timeout", "pool-cleared"}, []string{"--server-selection-timeout", "1s"},
			func(t *testing.T, s *testserver.Server, _ *testserver.Proxy) time.Time {
				s.Kill()
				back := time.Now()
				s.Start()
				return back
			}},
		{"paused", []string{"timeout", "network", "pool-cleared"}, []string{"--op-timeout", "1s"},
			func(t *testing.T, s *testserver.Server, _ *testserver.Proxy) time.Time {
				s.Pause()
				time.Sleep(2500 * time.Millisecond)
				back := time.Now()
				s.Resume()
				return back
			}},
		{"connections dropped", []string{"network", "server-selection", "timeout", "pool-cleared"}, nil,
			func(t *testing.T, _ *testserver.Server, p *testserver.Proxy) time.Time {
				p.Cut(true)
				time.Sleep(3 * time.Second)
				back := time.Now()
				p.Heal()
				return back
			}},
	}
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			srv := testserver.OwnServer(t)
			uri := srv.URI
			var proxy *testserver.Proxy
			if sc.name == "connections dropped" {
				host := strings.TrimSuffix(strings.TrimPrefix(srv.URI, "mongodb://"), "/?directConnection=true")
				proxy = testserver.NewProxy(t, host)
				uri = "mongodb://" + proxy.Addr() + "/?directConnection=true"
			}
			for _, m := range models {
				t.Run(m.name, func(t *testing.T) {
					fr := runWithFault(t, uri, m.args, sc.extra, func() time.Time { return sc.inject(t, srv, proxy) })
					checkFaultRun(t, fr, sc.classes, srv.URI)
					if sc.name == "killed and restarted" {
						if fr.res.Server == nil || fr.res.Server.Restarts == 0 {
							t.Errorf("the restart was not seen by the telemetry: %+v", fr.res.Server)
						} else if !strings.Contains(fr.stdout, "note: the server restarted during the run") {
							t.Errorf("the restart note is not on the console:\n%s", fr.stdout)
						}
					}
				})
			}
		})
	}
}

func checkFaultRun(t *testing.T, fr *faultRun, classes []string, direct string) {
	t.Helper()
	res := fr.res
	t.Logf("\n%s", fr.stdout)
	if res.Outcome != results.Completed {
		t.Errorf("outcome %s (%s): the run did not measure through the fault", res.Outcome, res.Reason)
	}
	f := res.Faults
	outage := fr.back.Sub(fr.fault)
	if res.Totals.Errors == 0 {
		// Every operation waited out the fault (the driver's server
		// selection and retries): then it shows as latency, not errors.
		if max := time.Duration(res.Totals.Latency.Max * float64(time.Millisecond)); max < outage/2 {
			t.Fatalf("no error and a max latency of %s for an outage of %s: the fault went unmeasured", max, outage)
		}
		t.Logf("no error: the fault cost latency (max %.0fms) for an outage of %s", res.Totals.Latency.Max, outage)
	} else if f == nil || len(f.Gaps) == 0 {
		t.Fatalf("%d errors and no gap: faults %+v", res.Totals.Errors, f)
	}
	for c := range res.Totals.ErrorsByClass {
		if !slices.Contains(classes, c) {
			t.Errorf("error class %q; this fault causes only %v", c, classes)
		}
	}
	if f == nil {
		f = &results.Faults{}
	}
	if len(f.Gaps) > 0 {
		// Oracle: the test's clock. No failure before the fault began, no
		// success again before the server was being brought back.
		at := func(s float64) time.Time { return res.StartedAt.Add(time.Duration(s * float64(time.Second))) }
		g := f.Gaps[0]
		if at(g.Start).Before(fr.fault.Add(-20 * time.Millisecond)) {
			t.Errorf("gap starts at %s, before the fault at %s", at(g.Start).Format("15:04:05.000"), fr.fault.Format("15:04:05.000"))
		}
		if g.Open || at(g.End).Before(fr.back) || at(g.End).After(fr.back.Add(5*time.Second)) {
			t.Errorf("gap %+v: ends at %s, the server was being brought back at %s", g, at(g.End).Format("15:04:05.000"), fr.back.Format("15:04:05.000"))
		}
		// The run went on after the fault.
		var after int64
		for _, iv := range res.Intervals {
			if iv.T-iv.Dt >= g.End {
				for _, o := range iv.Ops {
					after += o.Count
				}
			}
		}
		if after == 0 {
			t.Errorf("no operation succeeded after the gap ended at %.3fs", g.End)
		}
	}
	// Second code path: the timeline adds up to the whole-run counts.
	sum := map[string]int64{}
	for _, iv := range f.Timeline {
		for c, n := range iv.ErrorsByClass {
			sum[c] += n
		}
	}
	if !maps.Equal(sum, res.Totals.ErrorsByClass) {
		t.Errorf("timeline %v, totals %v", sum, res.Totals.ErrorsByClass)
	}
	if f.Lost != res.Totals.Errors+f.Abandoned {
		t.Errorf("lost %d, errors %d + abandoned %d", f.Lost, res.Totals.Errors, f.Abandoned)
	}
	// Complete: the intervals cover the measured phase, merge accepts it.
	var covered float64
	for _, iv := range res.Intervals {
		covered += iv.Dt
	}
	if math.Abs(covered-res.DurationSeconds) > 0.05 {
		t.Errorf("intervals cover %.3fs of %.3fs", covered, res.DurationSeconds)
	}
	merged := filepath.Join(filepath.Dir(fr.out), "m.json")
	if code, _, stderr := runCLI(t, context.Background(), nil, "merge", fr.out, "--out", merged); code != 0 {
		t.Fatalf("merge refused the result: exit %d: %s", code, stderr)
	}
	m, err := results.ReadJSON(merged)
	if err != nil || m.Totals.Operations != res.Totals.Operations || m.Totals.Errors != res.Totals.Errors {
		t.Errorf("merged %v: %d ops %d errors; want %d, %d", err, m.Totals.Operations, m.Totals.Errors, res.Totals.Operations, res.Totals.Errors)
	}
	// Acknowledged writes: the server's own count, one by one, is the
	// oracle. Lost ones are flagged (a killed server may lose w:1 writes
	// it acknowledged), and only then.
	if len(res.Collections) != 1 || res.Collections[0].Before == nil {
		t.Fatalf("no collection statistics: %+v", res.Collections)
	}
	var put int64
	for _, o := range res.Operations {
		if o.Name == "put" {
			put = o.Count
		}
	}
	n := countOn(t, direct, "mlfault", "items")
	lost := *res.Collections[0].Before.Count + put - n
	flagged := false
	for _, note := range res.Notes {
		flagged = flagged || strings.Contains(note, "acknowledged writes imply")
	}
	t.Logf("%d documents, %d before + %d acknowledged inserts: %d lost; flagged %v", n, *res.Collections[0].Before.Count, put, max(lost, 0), flagged)
	if flagged != (lost > 0) {
		t.Errorf("%d acknowledged writes lost, flagged %v: %v", lost, flagged, res.Notes)
	}
	if lost > 0 && (res.Server == nil || res.Server.Restarts == 0) {
		t.Errorf("%d acknowledged writes lost without a restart", lost)
	}
}

// countOn counts db.coll one document at a time on the server at uri.
func countOn(t *testing.T, uri, db, coll string) int64 {
	t.Helper()
	cl, err := mongodb.Connect(context.Background(), config.Connection{URI: uri})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	n, err := cl.CountExact(context.Background(), db, coll)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestFaultStepDownRefused: the fault schedule's stepdown against a server
// that cannot step down (SecantusDB's one-member replica set: no electable
// secondary) says so in one line and in the report, and the run goes on.
func TestFaultStepDownRefused(t *testing.T) {
	uri := testserver.URI(t)
	out := filepath.Join(t.TempDir(), "r.json")
	code, stdout, stderr := runCLI(t, context.Background(), nil, "run", writeFile(t, "w.yaml", faultWorkload), "--uri", uri,
		"--out", out, "--quiet", "--duration", "2s", "--fault", "at 500ms: stepdown 2s")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	var lines []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "fault at ") {
			lines = append(lines, l)
		}
	}
	if len(lines) != 1 || !strings.Contains(lines[0], "the server refused to step down") {
		t.Fatalf("want one line saying the stepdown was refused; stderr:\n%s", stderr)
	}
	res, err := results.ReadJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	if res.Faults == nil || len(res.Faults.Injected) != 1 || res.Faults.Injected[0].Outcome != "refused" || res.Outcome != results.Completed {
		t.Fatalf("faults %+v, outcome %s", res.Faults, res.Outcome)
	}
	if !strings.Contains(stdout, "fault at 500ms: stepdown 2s: refused") {
		t.Errorf("the report does not show the refused stepdown:\n%s", stdout)
	}
}
