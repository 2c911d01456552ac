package cli

import (
	"context"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/testserver"
)

// stepsWritten is an event of a findmax or sweep in the background: its
// file (rewritten after every probe or step) holds at least n of them.
func stepsWritten(path string, n int) func() bool {
	return func() bool {
		if f, err := results.ReadFindMax(path); err == nil {
			return len(f.Probes) >= n
		}
		if sw, err := readSweepFile(path); err == nil {
			return len(sw.Steps) >= n
		}
		return false
	}
}

// said is an event: the command's stderr holds s.
func said(b *background, s string) func() bool {
	return func() bool { return strings.Contains(b.stderr.String(), s) }
}

// capacityArgs are a short findmax or sweep against uri writing out.
func capacityArgs(t *testing.T, cmd, uri, out string) []string {
	args := []string{cmd, "--accept-noise", writeFile(t, "w.yaml", faultWorkload), "--uri", uri, "--out", out, "--seed", "500",
		"--step-duration", "1s", "--warmup", "0s", "--server-selection-timeout", "2s", "--connect-timeout", "1s", "--quiet"}
	if cmd == "findmax" {
		return append(args, "--slo", "p99<=200ms", "--start", "50", "--max-probes", "6")
	}
	return append(args, "--concurrency", "1,2,4,8", "--cooldown", "0s")
}

// TestCapacityServerKilled kills the server once the first probe or step
// is in the file: findmax and sweep stop with exit 21 and outcome
// server-lost, keep what they measured, and name the probe that lost it;
// nothing is reported as a capacity.
func TestCapacityServerKilled(t *testing.T) {
	for _, cmd := range []string{"findmax", "sweep"} {
		t.Run(cmd, func(t *testing.T) {
			s := testserver.OwnServer(t)
			out := filepath.Join(t.TempDir(), "f.json")
			args := capacityArgs(t, cmd, s.URI, out)
			b := runInBackground(context.Background(), args...)
			testserver.Await(t, 2*time.Minute, "the first probe or step written", stepsWritten(out, 1))
			s.Kill()
			code, stdout, stderr := b.wait()
			if code != ExitServerLost {
				t.Fatalf("exit %d, want %d\n%s\n%s", code, ExitServerLost, stdout, stderr)
			}
			if cmd == "findmax" {
				f, err := results.ReadFindMax(out)
				if err != nil {
					t.Fatal(err)
				}
				if f.Outcome != results.ServerLost || len(f.Probes) < 2 || !strings.Contains(f.Reason, "lost the server") || !strings.Contains(f.Reason, "probe ") {
					t.Errorf("outcome %q, %d probes, reason %q", f.Outcome, len(f.Probes), f.Reason)
				}
				if strings.Contains(stdout, "The highest rate") && f.Found && f.Outcome == results.Completed {
					t.Errorf("a lost server reported as a capacity:\n%s", stdout)
				}
				return
			}
			sw, err := readSweepFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if sw.Outcome != results.ServerLost || len(sw.Steps) < 2 || !strings.Contains(sw.Reason, "lost the server") {
				t.Errorf("outcome %q, %d steps, reason %q", sw.Outcome, len(sw.Steps), sw.Reason)
			}
		})
	}
}

// TestCapacityServerPaused freezes the server during the second probe or
// step and lets it run again once mongoload, having seen no answer, asks
// whether it answers: the interrupted probe is kept, not judged, and run
// again; the search goes on and the pause is never its answer's limit.
func TestCapacityServerPaused(t *testing.T) {
	for _, cmd := range []string{"findmax", "sweep"} {
		t.Run(cmd, func(t *testing.T) {
			s := testserver.OwnServer(t)
			out := filepath.Join(t.TempDir(), "f.json")
			args := capacityArgs(t, cmd, s.URI, out)
			b := runInBackground(context.Background(), args...)
			second := "probe 2 ("
			if cmd == "sweep" {
				second = "step 2/4"
			}
			testserver.Await(t, 2*time.Minute, "the second probe or step under way", said(b, second))
			s.Pause()
			testserver.Await(t, time.Minute, "mongoload asking the silent server again", said(b, "asking whether it answers again"))
			s.Resume()
			code, stdout, stderr := b.wait()
			if code == ExitServerLost || code == ExitInternal {
				t.Fatalf("exit %d: a pause that ended was taken for a lost server\n%s\n%s", code, stdout, stderr)
			}
			if cmd == "sweep" {
				sw, err := readSweepFile(out)
				if err != nil {
					t.Fatal(err)
				}
				if sw.Outcome != results.Completed || len(sw.Steps) != 4 || !strings.Contains(strings.Join(sw.Notes, " "), "was run again") {
					t.Errorf("outcome %q, %d steps, notes %q", sw.Outcome, len(sw.Steps), sw.Notes)
				}
				return
			}
			f, err := results.ReadFindMax(out)
			if err != nil {
				t.Fatal(err)
			}
			i := -1
			for k, p := range f.Probes {
				if p.Interrupted != "" {
					i = k
					break
				}
			}
			j := i + 1 // the rate probed again; an extended probe's earlier runs (tails, no terms) are passed over: its last run decides
			for i >= 0 && j < len(f.Probes) && f.Probes[j].Terms == nil && len(f.Probes[j].Tails) > 0 && f.Probes[j].Rate == f.Probes[i].Rate {
				j++
			}
			if i < 0 || f.Probes[i].Terms != nil || j >= len(f.Probes) || f.Probes[j].Rate != f.Probes[i].Rate || f.Probes[j].Terms == nil {
				t.Fatalf("no interrupted probe run again at its rate: %+v", f.Probes)
			}
			if f.Outcome != results.Completed || f.Limit.Kind == "server" && f.FailedAbove != nil && f.FailedAbove.Rate == f.Probes[i].Rate {
				t.Errorf("outcome %q, limit %+v", f.Outcome, f.Limit)
			}
		})
	}
}

// TestFindMaxEstimatePaused freezes the server during findmax's first
// estimate (no --start) and lets it run again once mongoload asks whether
// it answers: the estimate measured through the pause is not used, it is
// run again and the search starts from the new one, saying so (a paused
// estimate once set the search's range from 319 ops/s, unannounced).
func TestFindMaxEstimatePaused(t *testing.T) {
	s := testserver.OwnServer(t)
	out := filepath.Join(t.TempDir(), "f.json")
	args := capacityArgs(t, "findmax", s.URI, out)
	args = args[:len(args)-4] // no --start 50: the estimate sets it
	args = append(args, "--max-probes", "2")
	b := runInBackground(context.Background(), args...)
	testserver.Await(t, 2*time.Minute, "the estimate under way", said(b, "estimate: a closed loop"))
	s.Pause()
	testserver.Await(t, time.Minute, "mongoload asking the silent server again", said(b, "asking whether it answers again"))
	s.Resume()
	code, stdout, stderr := b.wait()
	if code == ExitServerLost || code == ExitInternal {
		t.Fatalf("exit %d: a pause that ended was taken for a lost server\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "the estimate: the server stopped answering and came back") || !strings.Contains(stderr, "estimate again: a closed loop") {
		t.Errorf("the paused estimate was not announced and run again:\n%s", stderr)
	}
	f, err := results.ReadFindMax(out)
	if err != nil {
		t.Fatal(err)
	}
	if f.Estimate == nil || f.Start != float64(int(f.Estimate.Totals.Throughput/2)) || !strings.Contains(strings.Join(f.Notes, " "), "the estimate was run 2 times") {
		t.Errorf("start %g from an estimate of %v ops/s; notes %q", f.Start, f.Estimate != nil && f.Estimate.Totals.Throughput > 0, f.Notes)
	}
}

// TestServerCPUBehindAProxy: a server reached through a TCP proxy is not
// measured as the proxy: the process holding the URI's port is not the
// one serverStatus names, so its CPU is said to be unreadable and a
// calibration refuses (exit 32) rather than calibrate the proxy.
func TestServerCPUBehindAProxy(t *testing.T) {
	uri, _ := testserver.Own(t)
	u, err := url.Parse(uri)
	if err != nil {
		t.Fatal(err)
	}
	p := testserver.NewProxy(t, u.Host)
	u.Host = p.Addr()
	out := filepath.Join(t.TempDir(), "s.json")
	code, stdout, stderr := runCLI(t, context.Background(), nil, "sweep", "--accept-noise", writeFile(t, "w.yaml", faultWorkload), "--uri", u.String(),
		"--concurrency", "1,2", "--step-duration", "1s", "--warmup", "0s", "--cooldown", "0s", "--quiet", "--target-server-cpu", "50%", "--out", out)
	if code != ExitNoServerCPU || !strings.Contains(stderr, "not by the server") || !strings.Contains(stderr, "something stands in front of the server") {
		t.Fatalf("exit %d, want %d naming the proxy\n%s\n%s", code, ExitNoServerCPU, stdout, stderr)
	}
	// Straight to the server, its CPU is read from /proc.
	code, stdout, stderr = runCLI(t, context.Background(), nil, "run", writeFile(t, "w.yaml", faultWorkload), "--uri", uri,
		"--duration", "1s", "--warmup", "0s", "--quiet", "--out", out)
	res, err := results.ReadJSON(out)
	if code != 0 || err != nil || res.Server == nil || !strings.HasPrefix(res.Server.CPUSource, "/proc/") {
		t.Fatalf("direct: exit %d, %v\n%s\n%s", code, err, stdout, stderr)
	}
	if in := res.Interference; in == nil || in.Server == nil || !strings.Contains(in.ServerProcess, "pid ") {
		t.Errorf("direct: interference %+v: the server's own CPU is not told apart", in)
	}
	// What mongoload asked besides the workload is counted by phase: the
	// sampler inside the measured phase, the statistics outside it.
	phases := map[string]string{}
	if tl := res.Client.Telemetry; tl != nil {
		for _, c := range tl.Commands {
			phases[c.Name] += c.Phase + " "
		}
	}
	if !strings.Contains(phases["serverStatus"], "measured") || phases["collStats"] != "outside " {
		t.Errorf("client.telemetry by command: %v", phases)
	}
}
