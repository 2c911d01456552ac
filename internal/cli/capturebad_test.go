package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/testserver"
)

// onLine passes writes through and calls fn, once, on the first that
// holds match: a fault that strikes on an event of the run.
type onLine struct {
	w     io.Writer
	match string
	fn    func()
	once  sync.Once
}

func (o *onLine) Write(p []byte) (int, error) {
	n, err := o.w.Write(p)
	if strings.Contains(string(p), o.match) {
		o.once.Do(o.fn)
	}
	return n, err
}

// TestCaptureRestoresTheProfilerOnCtrlC: --enable-profiler turns the
// profiler on for the window; Ctrl-C during it ends the window, the
// operations recorded so far are written, the exit is 20, and the
// database's profiler is back at level 0 with its own slowms.
func TestCaptureRestoresTheProfilerOnCtrlC(t *testing.T) {
	uri := testserver.URI(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cl := connectTest(t, context.Background(), uri)
	db := fmt.Sprintf("capint_%d", os.Getpid())
	t.Cleanup(func() { _, _ = cl.Command(context.Background(), db, bson.D{{Key: "dropDatabase", Value: 1}}) })
	if _, err := cl.Command(ctx, db, bson.D{{Key: "insert", Value: "things"}, {Key: "documents", Value: bson.A{bson.D{{Key: "n", Value: 1}}}}}); err != nil {
		t.Fatal(err)
	}
	// slowms is the server's, not the database's: put it back for the
	// other tests sharing the server.
	before, err := cl.Profiler(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cl.SetProfiler(context.Background(), db, before) })
	if _, err := cl.Command(ctx, db, bson.D{{Key: "profile", Value: 0}, {Key: "slowms", Value: 150}}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "w.yaml")
	var stdout, stderr lockedBuffer
	// The application runs once the window is open; Ctrl-C strikes when
	// the first of its operations has been read.
	app := &onLine{w: &stderr, match: "reading the profiler for", fn: func() {
		for i := range 20 {
			if _, err := cl.Command(context.Background(), db, bson.D{{Key: "find", Value: "things"}, {Key: "filter", Value: bson.D{{Key: "n", Value: i}}}}); err != nil {
				t.Error(err)
			}
		}
	}}
	strike := &onLine{w: app, match: "the first entry of the window arrived", fn: cancel}
	code := Run(ctx, []string{"capture", "--uri", uri, "--database", db, "--enable-profiler", "--duration", "1m", "--out", out},
		IO{Stdout: &stdout, Stderr: strike, Getenv: func(string) (string, bool) { return "", false }})
	if code != ExitInterrupted {
		t.Fatalf("exit %d, want %d (interrupted): %s%s", code, ExitInterrupted, stdout.String(), stderr.String())
	}
	if !strings.Contains(stderr.String(), "profiler of "+db+" restored to level 0 (slowms 150)") {
		t.Errorf("no restore reported: %s", stderr.String())
	}
	st, err := cl.Profiler(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	if st.Level != 0 || st.SlowMS != 150 {
		t.Errorf("profiler left at level %d, slowms %d; was 0 and 150", st.Level, st.SlowMS)
	}
	w, err := config.Load(out)
	if err != nil {
		t.Fatalf("nothing usable written after Ctrl-C: %v (%s)", err, stderr.String())
	}
	if len(w.Operations) != 1 || w.Operations[0].Type != "find" {
		t.Errorf("captured %+v, want the application's one find shape", w.Operations)
	}
}

// TestCaptureBadInput: each kind of bad input gets its exit code and one
// line that says what to do.
func TestCaptureBadInput(t *testing.T) {
	uri := testserver.URI(t)
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.log")
	os.WriteFile(garbage, []byte("not json\nnor this\n"), 0o644)
	emptyFile := filepath.Join(dir, "empty.json")
	os.WriteFile(emptyFile, nil, 0o644)
	empty := fmt.Sprintf("capempty_%d", os.Getpid())
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"an empty profiler says how to turn it on", []string{"--uri", uri, "--database", empty}, ExitUnreadable, "db.setProfilingLevel(2)"},
		{"no $queryStats on this server", []string{"--uri", uri, "--query-stats", "--database", empty}, ExitUnreadable, "this server has no $queryStats (MongoDB 8.0 and later, and Atlas, have it)"},
		{"a log of garbage", []string{"--log", garbage}, ExitUnreadable, "no line is a mongod JSON log entry (2 lines read)"},
		{"a missing export", []string{"--export", filepath.Join(dir, "none.json")}, ExitUnreadable, "none.json"},
		// It panicked (a nil source): an empty source is nothing to capture.
		{"an empty export", []string{"--export", emptyFile}, ExitUnreadable, "empty.json: no line is a profiler document in extended JSON: the file is empty"},
		{"an empty log", []string{"--log", emptyFile}, ExitUnreadable, "empty.json: no line is a mongod JSON log entry (0 lines read)"},
		{"the profiler needs a database", []string{"--uri", uri}, ExitUnreadable, "name the databases to capture with --database"},
		{"--enable-profiler needs a window", []string{"--uri", uri, "--database", empty, "--enable-profiler"}, ExitUnreadable, "give its length with --duration"},
		{"compare needs two files", []string{"--compare", garbage}, ExitUsage, "--compare takes two captures"},
		{"compare of files without shapes", []string{"--compare", garbage, garbage}, ExitUnreadable, "no captured shape in it"},
		{"a bad scale", []string{"--log", garbage, "--scale", "0"}, ExitInvalid, `--scale: 0 is out of range: give a factor above 0`},
		{"a bad sample", []string{"--log", garbage, "--sample", "-5"}, ExitInvalid, `--sample: -5 is out of range`},
		{"an infinite rate", []string{"--log", garbage, "--rate", "Inf"}, ExitInvalid, `--rate: +Inf is not finite`}, // wrote run.rate: .inf (issue 30)
		// Exit 2 and no range, where --sample-rate beside it said 12 (promises6 case 11).
		{"--max-impact over its range", []string{"--uri", uri, "--database", empty, "--enable-profiler", "--duration", "1h", "--max-impact", "2000%"}, ExitInvalid, `--max-impact: "2000%": 2000% is out of range: give a percentage of the source's latency or throughput (20%) above 0% and at most 1,000%`},
		{"--max-impact NaN", []string{"--uri", uri, "--database", empty, "--enable-profiler", "--duration", "1h", "--max-impact", "NaN"}, ExitInvalid, `at most 1,000%`},
		{"--max-impact 0%", []string{"--uri", uri, "--database", empty, "--enable-profiler", "--duration", "1h", "--max-impact", "0%"}, ExitInvalid, `above 0%`},
		{"--sample-rate 0", []string{"--uri", uri, "--database", empty, "--enable-profiler", "--duration", "1h", "--sample-rate", "0"}, ExitInvalid, `--sample-rate: 0 is out of range: give a fraction in (0, 1]`},
		// --out is tried before anything is read: a log or an export is
		// never overwritten, and a window is never lost to a bad path.
		{"--out over the log read", []string{"--log", garbage, "--out", garbage}, ExitOutput, "is also an input of this command"},
		{"--out over the export read", []string{"--export", garbage, "--out", garbage}, ExitOutput, "is also an input of this command"},
		{"--enable-profiler on a database that does not exist", []string{"--uri", uri, "--database", empty + "_none", "--enable-profiler", "--duration", "1h"}, ExitUnreadable, "does not exist on this server"},
		{"--out in a missing directory", []string{"--uri", uri, "--database", empty, "--enable-profiler", "--duration", "1h", "--out", filepath.Join(dir, "none", "x.yaml")}, ExitOutput, "cannot be written"},
	}
	t.Cleanup(func() {
		// No case may leave a database behind (the profile command creates one).
		cl := connectTest(t, context.Background(), uri)
		raw, err := cl.Command(context.Background(), "admin", bson.D{{Key: "listDatabases", Value: 1}, {Key: "nameOnly", Value: true}})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(raw.String(), empty) {
			t.Errorf("a capture created a database: %s", raw)
		}
	})
	before, _ := os.ReadFile(garbage)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCLI(t, context.Background(), nil, append([]string{"capture"}, tc.args...)...)
			if now, _ := os.ReadFile(garbage); string(now) != string(before) {
				t.Fatalf("the input was overwritten: %q", now)
			}
			if code != tc.code || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, want %d; stderr %q, want it to say %q (stdout %q)", code, tc.code, errs, tc.want, out)
			}
			if strings.Count(strings.TrimSpace(errs), "\n") > 1 || strings.Contains(errs, "goroutine ") {
				t.Errorf("more than a line, or a trace: %q", errs)
			}
		})
	}
}

// TestCaptureFromALog: a log alone (no server) gives a workload that
// validates, and the summary lists what was skipped and why.
func TestCaptureFromALog(t *testing.T) {
	out := filepath.Join(t.TempDir(), "w.yaml")
	code, stdout, errs := runCLI(t, context.Background(), nil, "capture", "--log", "../capture/testdata/mongod.log", "--log", "../capture/testdata/mongod.log.1", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, stdout, errs)
	}
	for _, want := range []string{"1 unsupported mapReduce", "1 unsupported $where", "1 truncated commands", "2 unreadable lines", "no rate: a log holds the operations slower than slowms"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the summary lacks %q:\n%s", want, stdout)
		}
	}
	if _, err := config.Load(out); err != nil {
		t.Fatal(err)
	}
	text, _ := os.ReadFile(out)
	// find by customer_id: 120, 101 and 100 ms on the source (the last in the older file).
	if want := "on the source: 107.00 ms on average, plan IXSCAN { customer_id: 1 } (3 of 3 executions)"; !strings.Contains(string(text), want) {
		t.Errorf("the file lacks %q:\n%s", want, text)
	}
	if code, o, e := runCLI(t, context.Background(), nil, "validate", out); code != 0 {
		t.Errorf("validate: exit %d: %s%s", code, o, e)
	}
}

// TestCaptureKeepsWhatWasReadWhenTheServerGoes: the server is killed when
// the first entry of the window has been read; capture writes what it read
// (the operations, a template it could not sample, said so) and exits 21.
func TestCaptureKeepsWhatWasReadWhenTheServerGoes(t *testing.T) {
	uri, pid := testserver.Own(t)
	cl := connectTest(t, context.Background(), uri)
	db := "vanish"
	if _, err := cl.Command(context.Background(), db, bson.D{{Key: "insert", Value: "things"}, {Key: "documents", Value: bson.A{bson.D{{Key: "n", Value: 1}}}}}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "w.yaml")
	var stdout, stderr lockedBuffer
	app := &onLine{w: &stderr, match: "reading the profiler for", fn: func() {
		for i := range 10 {
			if _, err := cl.Command(context.Background(), db, bson.D{{Key: "find", Value: "things"}, {Key: "filter", Value: bson.D{{Key: "n", Value: i}}}}); err != nil {
				t.Error(err)
			}
		}
	}}
	kill := &onLine{w: app, match: "the first entry of the window arrived", fn: func() {
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Error(err)
		}
	}}
	code := Run(context.Background(), []string{"capture", "--uri", uri, "--database", db, "--enable-profiler", "--duration", "1m",
		"--server-selection-timeout", "2s", "--out", out}, IO{Stdout: &stdout, Stderr: kill, Getenv: func(string) (string, bool) { return "", false }})
	if code != ExitServerLost {
		t.Fatalf("exit %d, want %d: %s%s", code, ExitServerLost, stdout.String(), stderr.String())
	}
	w, err := config.Load(out)
	if err != nil {
		t.Fatalf("nothing usable written: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	if len(w.Operations) != 1 || !strings.Contains(stdout.String(), "stopped answering") {
		t.Errorf("operations %+v; summary:\n%s", w.Operations, stdout.String())
	}
	if !strings.Contains(stderr.String(), "could not restore the profiler") {
		t.Errorf("the profiler could not be restored on a dead server, and the user must be told how: %s", stderr.String())
	}
}

// TestRunAtTheCapturedRateScaled: a workload's own rate (as capture
// writes it), times --rate-scale, is the open loop's target; the oracle is
// the run's own schedule (operations scheduled over the measured phase).
func TestRunAtTheCapturedRateScaled(t *testing.T) {
	uri := testserver.URI(t)
	w := writeFile(t, "w.yaml", strings.Replace(minimal, "operations:", "run: {rate: 40}\noperations:", 1))
	out := filepath.Join(t.TempDir(), "r.json")
	code, stdout, stderr := runCLI(t, context.Background(), nil, "run", w, "--uri", uri, "--rate-scale", "2.5", "--duration", "2s", "--warmup", "0s", "--quiet", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, stdout, stderr)
	}
	r, err := results.ReadJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	if r.Load.Type != "open" || r.Load.Rate != 100 || r.Schedule == nil || r.Schedule.Scheduled < 190 || r.Schedule.Scheduled > 210 {
		t.Errorf("load %+v, schedule %+v: want an open loop at 100/s, about 200 operations in 2s", r.Load, r.Schedule)
	}
}
