package cli

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/history"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/results/resultstest"
)

// nightly fills a directory store with n builds of one workload, the
// throughput at 2000 ops/s (1% jitter) until build drop, 15% lower from it.
func nightly(t *testing.T, n, drop int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "hist")
	jitter := []float64{0.4, -0.7, 0.9, -0.2, 0.6, -0.9, 0.1, -0.5, 0.8, -0.3}
	for i := 1; i <= n; i++ {
		tput := 2000 * (1 + jitter[i%len(jitter)]/100)
		if i >= drop {
			tput *= 0.85
		}
		r := resultstest.Result(results.LoadModel{Type: results.Open, Rate: tput}, resultstest.Step{Level: tput, Throughput: tput, LatencyMs: 2},
			time.Date(2026, 11, 1, 2, 0, 0, 0, time.UTC).Add(time.Duration(i)*24*time.Hour), "build-"+strconv.Itoa(i))
		r.Workload.Name = "nightly"
		if err := history.Keep(context.Background(), dir, r); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestHistoryCommand: the change point named where the throughput fell,
// the gate's exit code there and not on a flat series, each format.
func TestHistoryCommand(t *testing.T) {
	ctx := context.Background()
	dropped := nightly(t, 20, 12)
	code, out, errs := runCLI(t, ctx, nil, "history", dropped)
	if code != 0 || !strings.Contains(out, "at build-12: -1") || !strings.Contains(out, "a regression") {
		t.Fatalf("history: exit %d, %s%s", code, out, errs)
	}
	if code, _, errs := runCLI(t, ctx, nil, "history", dropped, "--fail-on-regression"); code != ExitRegression || !strings.Contains(errs, "nightly throughput") {
		t.Errorf("--fail-on-regression on a 15%% drop: exit %d, %s", code, errs)
	}
	if code, _, errs := runCLI(t, ctx, nil, "history", dropped, "--fail-on-regression", "--threshold", "20%"); code != 0 {
		t.Errorf("--fail-on-regression --threshold 20%% on a 15%% drop: exit %d, %s", code, errs)
	}
	if code, out, errs := runCLI(t, ctx, nil, "history", nightly(t, 20, 999), "--fail-on-regression"); code != 0 || !strings.Contains(out, "throughput (ops/s, higher is better): no change point") {
		t.Errorf("--fail-on-regression on a flat series: exit %d, %s%s", code, out, errs)
	}
	_, csv, _ := runCLI(t, ctx, nil, "history", dropped, "--format", "csv", "--metric", "throughput,p99")
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	if len(lines) != 21 || lines[0] != "time,label,throughput,p99_find_flight,p99_update_seats" || !strings.Contains(lines[12], ",build-12,1") {
		t.Errorf("csv:\n%s", csv)
	}
	_, page, _ := runCLI(t, ctx, nil, "history", dropped, "--format", "html", "--metric", "throughput")
	if strings.Count(page, "<svg") != 1 || strings.Count(page, `class="cp"`) != 1 || strings.Contains(page, "<script") || strings.Contains(page, "src=") {
		t.Errorf("html: want one self-contained chart with its change point marked:\n%.600s", page)
	}
	_, js, _ := runCLI(t, ctx, nil, "history", dropped, "--format", "json", "--workload", "nightly", "--label", "build-1*")
	var h results.History
	if err := json.Unmarshal([]byte(js), &h); err != nil || h.Schema != results.HistorySchema || len(h.Workloads) != 1 || len(h.Workloads[0].Runs) != 11 {
		t.Errorf("json of build-1* (build-1, build-10..19): %v %.400s", err, js)
	}
}

// TestHistoryBadInput: one line and its exit code each.
func TestHistoryBadInput(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "r.json")
	os.WriteFile(file, []byte("{}"), 0o644)
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	// A store holding a result of a schema this mongoload does not read.
	other := nightly(t, 3, 99)
	stored, _ := filepath.Glob(filepath.Join(other, "*.json.gz"))
	b, _ := results.ReadFile(stored[0])
	var zb bytes.Buffer
	zw := gzip.NewWriter(&zb)
	zw.Write(bytes.Replace(b, []byte(results.Schema), []byte("mongoload.results/v9"), 1))
	zw.Close()
	os.WriteFile(stored[0], zb.Bytes(), 0o644)
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{file}, ExitUnreadable, "is a file"},
		{[]string{empty}, ExitNothing, "is empty"},
		{[]string{other}, ExitUnreadable, `schema "mongoload.results/v9"`},
		{[]string{nightly(t, 1, 99)}, ExitNothing, "a change point needs 3"},
		{[]string{nightly(t, 5, 99), "--since", "last tuesday"}, ExitInvalid, "--since"},
		// issue 46 (history-nan, history-exit): a value that is not
		// finite or out of range is refused, exit 12, naming the flag
		// and its range; NaN had passed the gate and named every run
		{[]string{nightly(t, 5, 99), "--threshold", "NaN"}, ExitInvalid, "--threshold: \"NaN\": NaN is not a number: give a worsening in percent (5% or 5) from 0 to 1,000"},
		{[]string{nightly(t, 5, 99), "--threshold", "-5%"}, ExitInvalid, "--threshold: \"-5%\": -5 is out of range"},
		{[]string{nightly(t, 5, 99), "--threshold", "abc"}, ExitInvalid, "--threshold: \"abc\" is not a percentage"},
		{[]string{nightly(t, 5, 99), "--p-value", "NaN"}, ExitInvalid, "--p-value: \"NaN\": NaN is not a number: give a significance level from 0.001 to 0.5"},
		{[]string{nightly(t, 5, 99), "--p-value", "1"}, ExitInvalid, "--p-value: \"1\": 1 is out of range"},
		{[]string{nightly(t, 5, 99), "--format", "pdf"}, ExitUsage, "--format"},
		{[]string{nightly(t, 5, 99), "--metric", "p42"}, ExitNothing, "--metric"},
		{nil, ExitUsage, "give the store"},
	} {
		code, _, errs := runCLI(t, ctx, nil, append([]string{"history"}, tt.args...)...)
		if code != tt.code || !strings.Contains(errs, tt.want) || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
			t.Errorf("history %v: exit %d, %q; want %d and one line with %q", tt.args, code, errs, tt.code, tt.want)
		}
	}
}

// TestRunKeepsItsResult: run --history appends the result report reads
// back as it is; MONGOLOAD_HISTORY does the same; a store that is not
// one fails before the run.
func TestRunKeepsItsResult(t *testing.T) {
	ctx := context.Background()
	store := filepath.Join(t.TempDir(), "hist")
	args := []string{"run", "ycsb-b", "--target", "noop", "--rate", "500", "--duration", "300ms", "--warmup", "0s", "--quiet", "--label", "build-7"}
	if code, _, errs := runCLI(t, ctx, nil, append(args, "--history", store)...); code != 0 || !strings.Contains(errs, "result kept in history "+store) {
		t.Fatalf("run --history: exit %d, %s", code, errs)
	}
	if code, _, errs := runCLI(t, ctx, map[string]string{"MONGOLOAD_HISTORY": store}, args...); code != 0 {
		t.Fatalf("run with MONGOLOAD_HISTORY: exit %d, %s", code, errs)
	}
	if code, _, errs := runCLI(t, ctx, map[string]string{"MONGOLOAD_HISTORY": store}, "history"); code != ExitNothing || !strings.Contains(errs, "a change point needs 3") {
		t.Errorf("history with MONGOLOAD_HISTORY and no STORE: exit %d, %s; want it read (2 results: too few)", code, errs)
	}
	files, _ := filepath.Glob(filepath.Join(store, "*.json.gz"))
	if len(files) != 2 {
		t.Fatalf("%d results kept, want 2", len(files))
	}
	if code, out, errs := runCLI(t, ctx, nil, "report", files[0], "--markdown"); code != 0 || !strings.Contains(out, "ycsb-b (build-7)") {
		t.Errorf("report of a stored result: exit %d, %.200s%s", code, out, errs)
	}
	if code, out, errs := runCLI(t, ctx, nil, "compare", files[0], files[1]); code != 0 || !strings.Contains(out, "build-7") {
		t.Errorf("compare of two stored results: exit %d, %.200s%s", code, out, errs)
	}
	// A sweep keeps its sweep file.
	sweeps := filepath.Join(t.TempDir(), "sweeps")
	if code, _, errs := runCLI(t, ctx, nil, "sweep", "ycsb-b", "--target", "noop", "--rate", "200,400", "--step-duration", "300ms", "--warmup", "0s",
		"--accept-noise", "--label", "build-8", "--history", sweeps); code != 0 {
		t.Fatalf("sweep --history: exit %d, %s", code, errs)
	}
	kept, _ := filepath.Glob(filepath.Join(sweeps, "*build-8.json.gz"))
	if len(kept) != 1 {
		t.Fatalf("sweep --history kept %v", kept)
	}
	if f, err := results.Read(kept[0]); err != nil || f.Sweep == nil || len(f.Sweep.Steps) != 2 {
		t.Errorf("the sweep's stored file: %+v, %v", f, err)
	}
	file := filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, nil, 0o644)
	if code, out, errs := runCLI(t, ctx, nil, append(args, "--history", file)...); code != ExitOutput || out != "" || !strings.Contains(errs, "is a file") {
		t.Errorf("run --history FILE: exit %d, %q %q; want %d before the run", code, out, errs, ExitOutput)
	}
}
