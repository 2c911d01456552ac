package cli

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/capacity"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/testserver"
)

// reads is mixed's reads alone: its latency at a rate depends on the
// server, not on what earlier probes wrote.
var reads = mixed[:strings.Index(mixed, "  - name: bump")]

// TestFindMax searches the real test server for the highest rate meeting
// p99<=20ms and checks it with independent runs, the oracle: at the found
// rate the SLO holds (within 1.5x, nothing dropped, the rate achieved),
// and at twice the rate it fails.
func TestFindMax(t *testing.T) {
	testserver.Timing(t) // latencies at rates: meaningless under the race detector
	// a capacity: of a server no earlier test has aged
	uri := testserver.Fresh(t).URI
	dir := t.TempDir()
	wl := uniqueDB(t, reads)
	out, page, csvDir := filepath.Join(dir, "f.json"), filepath.Join(dir, "f.html"), filepath.Join(dir, "csv")
	code, stdout, stderr := runCLI(t, context.Background(), nil, "findmax", "--accept-noise", wl, "--uri", uri, "--seed", "2000",
		"--slo", "p99<=20ms", "--start", "100", "--step-duration", "2s", "--warmup", "500ms",
		"--label", "local", "--monthly-cost", "100", "--currency", "EUR", "--out", out, "--html", page, "--csv", csvDir)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	f, err := results.ReadFindMax(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"rate", "achieved", "p99 ms", "dropped", "verdict", "limited by"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the report lacks %q:\n%s", want, stdout)
		}
	}
	for _, p := range f.Probes {
		// A probe whose interval straddled the SLO was extended: that run
		// has its tails and no terms, the run after it decides.
		extended := p.Terms == nil && len(p.Tails) > 0 && p.Tails[0].Verdict == "inconclusive"
		if p.Result == nil || p.Result.Load.Rate != p.Rate || (len(p.Terms) < 4 && p.Interrupted == "" && !extended) {
			t.Errorf("probe at %g: result %v, %d terms", p.Rate, p.Result != nil, len(p.Terms))
		}
	}
	for _, file := range []string{page, filepath.Join(csvDir, "probes.csv")} {
		if b, err := os.ReadFile(file); err != nil || len(b) == 0 {
			t.Errorf("%s: %v", file, err)
		}
	}
	if f.Reliable == nil {
		t.Fatalf("the search's reliability was not assessed:\n%s", stdout)
	}
	if !*f.Reliable {
		// Other work on the host moved the answer, and the search says so:
		// no oracle run beside the same noise can judge it.
		t.Skipf("the search says its answer is unreliable, so no oracle can judge it: %s", f.ReliableWhy)
	}
	// The bracket is within the margin below the lowest failure and the
	// precision (EdgeMargin x 1.05, and the rounding of rates) unless rates inside it were the edge, where
	// some windows met the SLO and others did not, or had windows
	// inconclusive (judged by their point estimates, which a hiccup moves).
	width := capacity.EdgeMargin * 1.06
	if iv := f.MaxRateInterval; iv != nil && len(iv.Edge) > 0 {
		width = 2
	}
	for _, p := range f.Probes {
		if p.Inconclusive && p.Rate > f.MaxRate {
			width = 2
		}
	}
	if !f.Found || !f.Bracketed || f.MaxRate < 100 || f.FailedAbove == nil || f.FailedAbove.Rate > f.MaxRate*width {
		t.Fatalf("findmax: found %v bracketed %v max %g failed above %+v\n%s", f.Found, f.Bracketed, f.MaxRate, f.FailedAbove, stdout)
	}
	if !strings.Contains(stdout, "The highest rate meeting p99<=20ms is "+results.Target(f.MaxRate)+" ops/s") {
		t.Errorf("the report lacks the answer:\n%s", stdout)
	}
	// The search lands within the margin and its precision below the
	// edge, where this unindexed workload's SLO and the server's
	// throughput give out together and a fresh run decides by noise (the server's capacity
	// moves ~5% from run to run here: 2,200/s held in the search, 2,073/s
	// in a later run). So the claim is checked at the bracket's lower edge
	// less that spread, 0.9x: an answer more than 10% too high still fails.
	//
	// A window at a rate the search showed to pass in several runs can
	// still meet one of the server's hiccups (p99 165 ms at 0.9x a
	// 1,500 ops/s answer, once, on a CI host): the claim is that windows
	// there hold, so it is checked as a majority of up to three runs.
	holds := func(c confirmed) bool {
		return c.p99 <= 30 && c.dropped == 0 && c.throughput >= 0.95*0.9*f.MaxRate
	}
	var runs []confirmed
	passed := 0
	for passed < 2 && len(runs)-passed < 2 {
		c := confirmRun(t, uri, wl, 0.9*f.MaxRate)
		runs = append(runs, c)
		if holds(c) {
			passed++
		}
	}
	if passed < 2 {
		t.Errorf("at 0.9x findmax's %g ops/s independent runs measured %+v (p99, ops/s, dropped): the SLO does not hold in most of them", f.MaxRate, runs)
	}
	over := confirmRun(t, uri, wl, 2*f.MaxRate)
	if over.p99 <= 20 && over.dropped == 0 && over.throughput >= 0.95*2*f.MaxRate {
		t.Errorf("at twice findmax's rate (%g ops/s) an independent run still met the SLO: p99 %.3f ms, %.1f ops/s: findmax stopped too low", 2*f.MaxRate, over.p99, over.throughput)
	}
}

type confirmed struct {
	p99, throughput float64
	dropped         int64
}

// confirmRun runs the workload at rate on its own and reads its results file.
func confirmRun(t *testing.T, uri, wl string, rate float64) confirmed {
	t.Helper()
	out := filepath.Join(t.TempDir(), "r.json")
	code, stdout, stderr := runCLI(t, context.Background(), nil, "run", wl, "--uri", uri, "--rate", fmt.Sprint(rate),
		"--duration", "4s", "--warmup", "1s", "--quiet", "--out", out)
	if code != 0 {
		t.Fatalf("run at %g: exit %d\n%s\n%s", rate, code, stdout, stderr)
	}
	r, err := results.ReadJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	c := confirmed{p99: r.Totals.Latency.P99, throughput: r.Totals.Throughput}
	if r.Schedule != nil {
		c.dropped = r.Schedule.Dropped
	}
	return c
}

// TestFindMaxNoRate: an SLO no rate meets ends with exit 31, the lowest
// probe's figures, and a file saying nothing was found.
func TestFindMaxNoRate(t *testing.T) {
	uri := testserver.URI(t)
	out := filepath.Join(t.TempDir(), "f.json")
	code, stdout, stderr := runCLI(t, context.Background(), nil, "findmax", "--accept-noise", uniqueDB(t, reads), "--uri", uri, "--seed", "200",
		"--slo", "p99<=1us", "--start", "40", "--max-probes", "3", "--step-duration", "1s", "--warmup", "200ms", "--out", out)
	if code != ExitNoRate {
		t.Fatalf("exit %d, want %d\n%s\n%s", code, ExitNoRate, stdout, stderr)
	}
	if !strings.Contains(stderr, "No rate meets p99<=1us: even the lowest probe, 10 ops/s, failed p99<=1us") {
		t.Errorf("stderr does not name the lowest probe:\n%s", stderr)
	}
	f, err := results.ReadFindMax(out)
	if err != nil || f.Found || f.MaxRate != 0 || len(f.Probes) != 3 {
		t.Fatalf("file: %v, found %v, max %g, %d probes", err, f != nil && f.Found, f.MaxRate, len(f.Probes))
	}
}

// TestCalibrationProc calibrates a sweep to a target server CPU on a test
// server of its own, which reports no CPU itself, so mongoload reads
// /proc. The oracle is the test's own reading of the server's /proc stat
// over each point's measured phase: every point's CPU must agree with it,
// and the chosen level must be the point nearest the target by it.
func TestCalibrationProc(t *testing.T) {
	uri, pid := testserver.Own(t)
	var mu sync.Mutex
	type reading struct {
		at  time.Time
		cpu time.Duration
	}
	var readings []reading
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { // the oracle: the server's CPU, user + system, every 50 ms
		defer close(done)
		for {
			if cpu, ok := procCPU(pid); ok {
				mu.Lock()
				readings = append(readings, reading{time.Now(), cpu})
				mu.Unlock()
			}
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	}()
	out := filepath.Join(t.TempDir(), "sweep.json")
	code, stdout, stderr := runCLI(t, context.Background(), nil, "sweep", "--accept-noise", uniqueDB(t, mixed), "--uri", uri, "--concurrency", "1,8",
		"--step-duration", "1s", "--warmup", "200ms", "--cooldown", "100ms", "--seed", "500", "--quiet",
		"--target-server-cpu", "40%", "--out", out)
	close(stop)
	<-done
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	sw, err := readSweepFile(out)
	if err != nil {
		t.Fatal(err)
	}
	c := sw.Calibration
	if c == nil || c.Source != fmt.Sprintf("/proc/%d/stat", pid) || len(c.Points) < 2 || c.Cores != runtime.NumCPU() {
		t.Fatalf("calibration %+v", c)
	}
	if !strings.Contains(stdout, "calibration: the server's CPU sits at") {
		t.Errorf("the report lacks the calibration:\n%s", stdout)
	}
	share := func(from, to time.Time) float64 { // the oracle's CPU share over [from, to]
		mu.Lock()
		defer mu.Unlock()
		var a, b *reading
		for i := range readings {
			r := &readings[i]
			if !r.at.After(from) {
				a = r
			}
			if b == nil && !r.at.Before(to) {
				b = r
			}
		}
		if a == nil || b == nil {
			t.Fatalf("no /proc reading around %v..%v", from, to)
		}
		return (b.cpu - a.cpu).Seconds() / b.at.Sub(a.at).Seconds() / float64(runtime.NumCPU())
	}
	best := 0
	var oracle []float64
	for i, p := range c.Points {
		o := share(p.From, p.To)
		oracle = append(oracle, o)
		t.Logf("point %d: %g workers, mongoload %.1f%%, /proc %.1f%%", i, p.Level, 100*p.CPU, 100*o)
		// The oracle's window is up to 50 ms wider on each side, and /proc
		// counts in 10 ms ticks: 10 points of the cores is its margin.
		if math.Abs(o-p.CPU) > 0.10 {
			t.Errorf("point %d (%g workers): mongoload measured the server at %.1f%%, /proc says %.1f%%", i, p.Level, 100*p.CPU, 100*o)
		}
		if math.Abs(o-c.Target) < math.Abs(oracle[best]-c.Target) {
			best = i
		}
	}
	if c.Level != c.Points[best].Level && math.Abs(oracle[best]-c.Target) < math.Abs(share(pointAt(c, c.Level).From, pointAt(c, c.Level).To)-c.Target)-0.10 {
		t.Errorf("calibrated at %g workers, but by /proc %g workers (%.1f%%) is nearest the target", c.Level, c.Points[best].Level, 100*oracle[best])
	}
}

func pointAt(c *results.Calibration, level float64) results.CalibrationPoint {
	for _, p := range c.Points {
		if p.Level == level {
			return p
		}
	}
	return results.CalibrationPoint{}
}

// procCPU reads a process's user + system time from /proc/PID/stat, on its
// own: the oracle must not share mongoload's parser.
func procCPU(pid int) (time.Duration, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	s := string(b)
	fields := strings.Fields(s[strings.LastIndex(s, ")")+2:])
	var u, st int64
	if _, err := fmt.Sscan(fields[11]+" "+fields[12], &u, &st); err != nil {
		return 0, false
	}
	return time.Duration(u+st) * 10 * time.Millisecond, true
}
