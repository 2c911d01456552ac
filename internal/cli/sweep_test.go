package cli

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/report"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/results/resultstest"
	"github.com/mongoload/mongoload/internal/testserver"
)

// mixed has reads and writes, so the sweep's class table has both.
const mixed = `
collections:
  - database: mltest
    name: items
    template:
      k: {$gen: key}
      v: {$gen: int, min: 1, max: 9}
operations:
  - name: get
    type: findOne
    weight: 3
    filter: {k: {$gen: key}}
  - name: bump
    type: updateOne
    weight: 1
    filter: {k: {$gen: key}}
    update: {$inc: {v: 1}}
`

// TestSweep runs a short real sweep and checks the table, the sweep file
// (every step's full result, with its interval series) and the HTML and CSV
// files.
func TestSweep(t *testing.T) {
	uri := testserver.URI(t)
	dir := t.TempDir()
	out, page, csvDir := filepath.Join(dir, "sweep.json"), filepath.Join(dir, "sweep.html"), filepath.Join(dir, "csv")
	code, stdout, stderr := runCLI(t, context.Background(), nil, "sweep", "--accept-noise", uniqueDB(t, mixed), "--uri", uri, "--concurrency", "1,4,16",
		"--step-duration", "2s", "--warmup", "200ms", "--cooldown", "300ms", "--seed", "1000", "--quiet",
		"--label", "local", "--monthly-cost", "100", "--currency", "EUR", "--out", out, "--html", page, "--csv", csvDir)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	// The header's spacing follows the widest ops/s figure, so match it loosely.
	if !regexp.MustCompile(`workers +ops/s +gain`).MatchString(stdout) {
		t.Errorf("the table lacks its header:\n%s", stdout)
	}
	for _, want := range []string{"\n1  ", "\n4  ", "\n16 ", "Limit: ", "read ops/s", "rules:"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the table lacks %q:\n%s", want, stdout)
		}
	}
	for _, want := range []string{"step 1/3: 1 worker for 2s", "step 3/3: 16 workers:", "cooldown 300ms", "sweep written to"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	sw, err := readSweepFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if sw.Outcome != results.Completed || len(sw.Steps) != 3 || sw.Analysis == nil || sw.Label != "local" || sw.Cost == nil || sw.Cost.Monthly != 100 {
		t.Fatalf("sweep file: outcome %s, %d steps, label %q, cost %+v", sw.Outcome, len(sw.Steps), sw.Label, sw.Cost)
	}
	for i, st := range sw.Steps {
		r := st.Result
		if !st.Complete || r.Load.Concurrency != int(st.Level) || r.Totals.Operations == 0 || len(r.Intervals) < 2 {
			t.Errorf("step %d: complete %v, load %+v, %d operations, %d intervals", i+1, st.Complete, r.Load, r.Totals.Operations, len(r.Intervals))
		}
		if r.WarmupSeconds != 0.2 || r.Cost == nil {
			t.Errorf("step %d: warm-up %v, cost %v", i+1, r.WarmupSeconds, r.Cost)
		}
		if strings.Contains(string(r.Config), `"out"`) {
			t.Errorf("step %d records a results file of its own: %s", i+1, r.Config) // the sweep's file holds it
		}
		f := sw.Analysis.Steps[i]
		if f.Verdict == "" || f.Read == nil || f.Write == nil || f.ClientCPU == nil {
			t.Errorf("step %d analysis: %+v", i+1, f)
		}
	}
	if sw.Analysis.Limit.Text == "" || !strings.Contains(sw.Analysis.Limit.Text, "runs on this machine") {
		t.Errorf("limit %+v: a loopback server shares the machine", sw.Analysis.Limit)
	}
	html, err := os.ReadFile(page)
	if err != nil || !strings.Contains(string(html), "Where it stops scaling") {
		t.Errorf("HTML report: %v", err)
	}
	for _, name := range []string{report.CSVSweep, report.CSVIntervals, report.CSVOperations} {
		if fi, err := os.Stat(filepath.Join(csvDir, name)); err != nil || fi.Size() < 100 {
			t.Errorf("CSV %s: %v", name, err)
		}
	}
	// The file renders again, as Markdown, without a server.
	code, stdout, stderr = runCLI(t, context.Background(), nil, "report", out, "--markdown")
	if code != 0 || !strings.Contains(stdout, "| workers | ops/s |") {
		t.Errorf("report --markdown: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// TestSweepInterrupted: Ctrl-C during the second step keeps the first,
// keeps the second as not judged, writes the file and exits 20.
func TestSweepInterrupted(t *testing.T) {
	uri := testserver.URI(t)
	out := filepath.Join(t.TempDir(), "sweep.json")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := runInBackground(ctx, "sweep", "--accept-noise", uniqueDB(t, mixed), "--uri", uri, "--concurrency", "2,4,8",
		"--step-duration", "2s", "--interval", "250ms", "--cooldown", "0s", "--seed", "500", "--out", out)
	// Cancel once step 2 is provably measuring: step 1's results are in
	// the file, and a live interval with operations follows.
	seen := 0
	testserver.Await(t, time.Minute, "step 1's results", func() bool {
		_, err := os.Stat(out)
		seen = len(testserver.LiveProgress(r.stderr.String()))
		return err == nil
	})
	testserver.Await(t, time.Minute, "a live interval of step 2", func() bool {
		ps := testserver.LiveProgress(r.stderr.String())
		return len(ps) > seen && ps[len(ps)-1].OpsPerSec > 0
	})
	cancel()
	code, stdout, stderr := r.wait()
	if code != ExitInterrupted {
		t.Fatalf("exit %d, want %d\n%s\n%s", code, ExitInterrupted, stdout, stderr)
	}
	if !strings.Contains(stderr, "the sweep stopped early: interrupted during step 2 (4 workers)") {
		t.Errorf("no clear message:\n%s", stderr)
	}
	sw, err := readSweepFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if sw.Outcome != results.Interrupted || len(sw.Steps) != 2 || !sw.Steps[0].Complete || sw.Steps[1].Complete || sw.Analysis == nil || len(sw.Notes) == 0 {
		t.Fatalf("outcome %s, %d steps, notes %q", sw.Outcome, len(sw.Steps), sw.Notes)
	}
	if sw.Analysis.Steps[1].Verdict != "" || !strings.Contains(stdout, "(interrupted: not judged)") {
		t.Errorf("the interrupted step was judged: %+v\n%s", sw.Analysis.Steps[1], stdout)
	}
}

// TestSweepBadInput: every mistake is one clear line and a usage exit
// code, before anything connects.
func TestSweepBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		env  map[string]string
		code int
		want string
	}{
		{[]string{"sweep"}, nil, ExitUsage, "say what to sweep"},                                                            // no levels
		{[]string{"sweep", "--concurrency", "1,2", "--rate", "10,20"}, nil, ExitUsage, "not both --concurrency and --rate"}, // two parameters
		{[]string{"sweep", "--concurrency", "8,4"}, nil, ExitInvalid, "must increase"},                                      // decreasing
		{[]string{"sweep", "--concurrency", "1,2.5"}, nil, ExitInvalid, `2.5 is not a whole number`},                        // fractional workers
		{[]string{"sweep", "--rate", "100,abc"}, nil, ExitInvalid, `"abc" is not a number`},                                 // not a number
		{[]string{"sweep", "--concurrency", "1,2", "--knee-gain", "0.9"}, nil, ExitInvalid, "--knee-gain 0.9 must be"},      // rules that contradict
		{[]string{"sweep", "--concurrency", "1,2", "--verdict-latency", "p42"}, nil, ExitInvalid, "choose avg, p50"},        // unknown latency
		{[]string{"sweep", "--concurrency", "1,2", "--step-duration", "soon"}, nil, ExitInvalid, "--step-duration"},         // bad duration
		{[]string{"sweep", "--concurrency", "1,2", "--duration", "5s"}, nil, ExitUsage, "unknown flag: --duration"},         // a step's length is --step-duration
		{[]string{"sweep", "--sessions", "10,20"}, nil, ExitInvalid, "think"},                                               // sessions need a think time
		{[]string{"sweep", "--concurrency", "1,2", "--out", "/nonexistent/dir/s.json"}, nil, ExitOutput, "cannot be written"},
		{[]string{"sweep", "--rate", "100,Inf"}, nil, ExitInvalid, `+Inf is not finite`},                                    // issue 30
		{[]string{"sweep", "--concurrency", "1,2", "--plateau", "NaN"}, nil, ExitInvalid, `--plateau: NaN is not a number`}, // issue 30
		// from the environment, named by its variable, not by a flag never given (promises6 env-named-flag)
		{[]string{"sweep"}, map[string]string{"MONGOLOAD_CONCURRENCY": "1,x"}, ExitInvalid, `MONGOLOAD_CONCURRENCY: "1,x": "x" is not a number`},
		{[]string{"sweep"}, map[string]string{"MONGOLOAD_RATE": "100,50"}, ExitInvalid, `MONGOLOAD_RATE: "100,50": the levels must increase`},
		{[]string{"sweep", "--rate", "10,20"}, map[string]string{"MONGOLOAD_SESSIONS": "5"}, ExitUsage, "not both --rate and MONGOLOAD_SESSIONS"},
		// an empty level is a typo, not a level to drop in silence
		{[]string{"sweep", "--concurrency", "4,,8"}, nil, ExitInvalid, `--concurrency: "4,,8": level 2 is empty`},
		{[]string{"sweep", "--concurrency", ",4"}, nil, ExitInvalid, `--concurrency: ",4": level 1 is empty`},
		{[]string{"sweep"}, map[string]string{"MONGOLOAD_SESSIONS": "10, ,20"}, ExitInvalid, `MONGOLOAD_SESSIONS: "10, ,20": level 2 is empty`},
	} {
		code, _, stderr := runCLI(t, context.Background(), c.env, c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%v: exit %d (want %d), stderr %q (want %q on one line)", c.args, code, c.code, stderr, c.want)
		}
	}
}

// TestCompareAndReport compares files made without a server and renders
// them in every format.
func TestCompareAndReport(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, res *results.Result) string {
		p := filepath.Join(dir, name)
		if err := results.WriteJSON(p, res); err != nil {
			t.Fatal(err)
		}
		return p
	}
	load := results.LoadModel{Type: results.Closed, Concurrency: 75}
	base := resultstest.Result(load, resultstest.Step{Level: 75, Throughput: 650, LatencyMs: 11.5}, resultstest.T0, "m3-xlarge-8")
	base.Cost = &results.Cost{Monthly: 797.76, Currency: "EUR"}
	big := resultstest.Result(load, resultstest.Step{Level: 75, Throughput: 1625, LatencyMs: 4.6}, resultstest.T0, "s3-2xlarge-8")
	big.Cost = &results.Cost{Monthly: 1180.08, Currency: "EUR"}
	a, b := write("m3.json", base), write("s3.json", big)
	sweep := filepath.Join(dir, "sweep.json")
	if err := results.WriteSweep(sweep, resultstest.Sweep("concurrency", "primary", resultstest.Seed000())); err != nil {
		t.Fatal(err)
	}

	code, stdout, stderr := runCLI(t, context.Background(), nil, "compare", a, b, "--objective", "throughput>=2x", "--objective", "read.p95<=+5%")
	if code != 0 || !strings.Contains(stdout, "throughput per cost (ops/s per 100 EUR/month)") || !strings.Contains(stdout, "meets every objective: s3-2xlarge-8") {
		t.Errorf("compare: exit %d\n%s\n%s", code, stdout, stderr)
	}
	code, stdout, _ = runCLI(t, context.Background(), nil, "compare", a, b, "--baseline", "s3-2xlarge-8", "--markdown")
	if code != 0 || !strings.Contains(stdout, "## Comparison against s3-2xlarge-8 (baseline)") {
		t.Errorf("compare --baseline --markdown: exit %d\n%s", code, stdout)
	}
	page, csvDir := filepath.Join(dir, "cmp.html"), filepath.Join(dir, "cmpcsv")
	code, _, stderr = runCLI(t, context.Background(), nil, "report", "compare", a, b, "--html", page, "--csv", csvDir)
	if code != 0 || !strings.Contains(stderr, "HTML report written") {
		t.Errorf("report compare: exit %d %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(csvDir, report.CSVCompare)); err != nil {
		t.Error(err)
	}
	// A sweep file without an analysis (a killed sweep) is analysed on the way.
	code, stdout, stderr = runCLI(t, context.Background(), nil, "report", sweep)
	if code != 0 || !strings.Contains(stdout, "Sweet spot: 32 workers") {
		t.Errorf("report sweep: exit %d\n%s\n%s", code, stdout, stderr)
	}
	code, stdout, _ = runCLI(t, context.Background(), nil, "report", a, "--markdown")
	if code != 0 || !strings.Contains(stdout, "| find_flight |") {
		t.Errorf("report results --markdown: exit %d\n%s", code, stdout)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"compare", a}, ExitUsage, "at least two"},                                    // one file
		{[]string{"compare", a, filepath.Join(dir, "none.json")}, ExitUnreadable, "none.json"}, // missing
		{[]string{"compare", a, b, "--baseline", "nope"}, ExitUsage, `--baseline "nope" names no input`},
		{[]string{"compare", a, b, "--objective", "speed>=2x"}, ExitInvalid, `no metric "speed"`},
		{[]string{"compare", a, b, "--objective", "throughput"}, ExitUsage, "write METRIC OP VALUE"},
		{[]string{"report"}, ExitUsage, "name a results or sweep file"},
		{[]string{"report", a, b}, ExitUsage, "one file at a time"},
	} {
		code, _, stderr := runCLI(t, context.Background(), nil, c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d (want %d), %q (want %q)", c.args, code, c.code, stderr, c.want)
		}
	}
}

// TestSweepOtherModels steps an open-loop rate and think-time sessions.
func TestSweepOtherModels(t *testing.T) {
	uri := testserver.URI(t)
	for _, c := range []struct {
		name string
		args []string
		typ  string
	}{
		{"rate", []string{"--rate", "50,100"}, results.Open},                                  // open loop
		{"sessions", []string{"--sessions", "2,4", "--think-time", "20ms"}, results.Sessions}, // think time
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "sweep.json")
			args := append([]string{"sweep", "--accept-noise", uniqueDB(t, mixed), "--uri", uri, "--step-duration", "1s", "--cooldown", "0s", "--seed", "200", "--quiet", "--out", out}, c.args...)
			code, stdout, stderr := runCLI(t, context.Background(), nil, args...)
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
			}
			sw, err := readSweepFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if sw.Load.Type != c.typ || len(sw.Steps) != 2 || sw.Steps[1].Result.Load.Type != c.typ {
				t.Fatalf("load %+v, %d steps", sw.Load, len(sw.Steps))
			}
			r := sw.Steps[1].Result.Load
			if (c.typ == results.Open && r.Rate != 100) || (c.typ == results.Sessions && r.Sessions != 4) {
				t.Errorf("step 2 ran %+v", r)
			}
			if !strings.Contains(stdout, sw.Load.ColumnName()+"  ") {
				t.Errorf("the table's first column is not %q:\n%s", sw.Load.ColumnName(), stdout)
			}
		})
	}
}

// TestSweepNamesTheClientPool: a sweep of 2 to 16 workers over a pool of
// 2 connections. The oracle is the pool itself: the server can never have
// more than 2 of the client's operations at once, so every level above 2
// must be flagged and the verdict must name the client's pool, whatever
// the server did.
func TestSweepNamesTheClientPool(t *testing.T) {
	uri := testserver.URI(t)
	out := filepath.Join(t.TempDir(), "sweep.json")
	code, stdout, stderr := runCLI(t, context.Background(), nil, "sweep", "--accept-noise", uniqueDB(t, mixed), "--uri", uri, "--concurrency", "2,4,8,16",
		"--max-pool-size", "2", "--step-duration", "1500ms", "--warmup", "200ms", "--cooldown", "200ms", "--seed", "1000", "--quiet", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	sw, err := readSweepFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range sw.Analysis.Steps {
		if want := f.Level > 2; f.AboveInFlightLimit != want || f.InFlightLimit != 2 {
			t.Errorf("%g workers: above the limit %v (limit %d), want %v (limit 2)", f.Level, f.AboveInFlightLimit, f.InFlightLimit, want)
		}
	}
	if k := sw.Analysis.Limit.Kind; k != "client-pool" && k != "client" {
		t.Errorf("limit %+v: the pool of 2 bounds every step above 2 workers\n%s", sw.Analysis.Limit, stdout)
	}
	if strings.Contains(stdout, "Limit: the server") {
		t.Errorf("the server is blamed for the client's pool:\n%s", stdout)
	}
}

// TestCapacityNumericFlags: NaN, the infinities, 0, negatives and huge
// values of findmax's and sweep's numeric flags are refused before
// anything runs, every one named at once, with exit 12 and no panic.
func TestCapacityNumericFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"findmax", "--slo", "p99<=20ms", "--factor", "NaN", "--start", "-5", "--precision", "0%", "--achieved", "150%",
			"--max-probes", "-1", "--step-duration", "0", "--client-cpu-limit", "Inf"},
			[]string{"--factor: NaN", "--start: -5", `--precision: "0%"`, `--achieved: "150%"`, "--max-probes: -1", `--step-duration: "0"`, "--client-cpu-limit: +Inf"}},
		{[]string{"findmax", "--slo", "p99<=20ms", "--factor", "+Inf", "--start", "1e308", "--max-probes", "99999999", "--step-duration", "1e308", "--target-server-cpu", "NaN"},
			[]string{"--factor: +Inf", "--start: 1e+308", "--max-probes: 99999999", `--step-duration: "1e308"`, `--target-server-cpu: "NaN"`}},
		{[]string{"findmax", "--slo", "p99<=20ms", "--factor", "0", "--start", "0", "--precision", "NaN", "--step-duration", "-Inf"},
			[]string{"--factor: 0", "--start: 0", `--precision: "NaN"`, `--step-duration: "-Inf"`}},
		{[]string{"sweep", "--rate", "1,NaN", "--plateau", "NaN", "--knee-gain", "-1", "--latency-knee", "Inf", "--step-duration", "NaN"},
			[]string{`--rate: "1,NaN"`, "--plateau: NaN", "--knee-gain: -1", "--latency-knee: +Inf", `--step-duration: "NaN"`}},
		{[]string{"sweep", "--concurrency", "1,1e300", "--oversaturated", "-Inf", "--client-cpu-limit", "0"},
			[]string{`--concurrency: "1,1e300"`, "--oversaturated: -Inf", "--client-cpu-limit: 0"}},
	} {
		args := append([]string{c.args[0], "ycsb-b", "--target", "noop"}, c.args[1:]...)
		code, _, stderr := runCLI(t, context.Background(), nil, args...)
		if code != ExitInvalid || strings.Contains(stderr, "panic") {
			t.Errorf("%v: exit %d, want %d\n%s", c.args, code, ExitInvalid, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%v: stderr does not name %s:\n%s", c.args, w, stderr)
			}
		}
	}
}
