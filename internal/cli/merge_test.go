package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/sink"
)

// writeProcess writes the results file and interval log of one process of
// a two-operation run, as the run command would.
func writeProcess(t *testing.T, dir string, p int, workload string) (jsonPath, hlogPath string) {
	t.Helper()
	ops := []string{"get", "put"}
	r := metrics.NewRecorder(ops, metrics.Options{Shards: 1})
	start := time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC).Add(time.Duration(p) * 300 * time.Millisecond)
	r.Reset(start)
	info := results.RunInfo{Tool: results.Tool{Name: "mongoload", Version: "test"}, Workload: results.Workload{Name: workload},
		Load: results.LoadModel{Type: results.Closed, Concurrency: 2}, OpTypes: map[string]string{"get": "findOne", "put": "insertOne"}, Outcome: results.Completed}
	jsonPath, hlogPath = filepath.Join(dir, fmt.Sprintf("p%d.json", p)), filepath.Join(dir, fmt.Sprintf("p%d.hlog", p))
	hl, err := sink.CreateHlog(hlogPath)
	if err != nil {
		t.Fatal(err)
	}
	var series []results.IntervalSummary
	totals := metrics.NewTotals(ops, false)
	for sec := 1; sec <= 2; sec++ {
		for i := range 100 {
			r.Shard(0).Record(i%2, time.Duration(100+i*(p+1))*time.Microsecond)
		}
		iv := r.Interval(start.Add(time.Duration(sec) * time.Second))
		totals.Add(iv)
		snap := sink.NewSnapshot(iv, time.Duration(sec)*time.Second)
		series = append(series, snap.Summary) // as a run keeps its series
		hl.Interval(snap)
	}
	res := results.Build(info, totals, series)
	if err := hl.Close(res); err != nil {
		t.Fatal(err)
	}
	if err := results.WriteJSON(jsonPath, res); err != nil {
		t.Fatal(err)
	}
	return jsonPath, hlogPath
}

// TestMergeCommand protects the merge command's contract: it prints the
// merged report or JSON, writes --out, mixes results files and interval
// logs, and refuses what cannot be merged with its own exit code and a
// message naming the files.
func TestMergeCommand(t *testing.T) {
	dir := t.TempDir()
	a, _ := writeProcess(t, dir, 0, "flights")
	_, bLog := writeProcess(t, dir, 1, "flights")
	other, _ := writeProcess(t, t.TempDir(), 2, "ycsb-a")
	out := filepath.Join(dir, "merged.json")

	code, stdout, stderr := runCLI(t, context.Background(), nil, "merge", a, bLog, "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"merged:   2 files:", "p1.hlog (interval log)", "TOTAL", "400"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("report lacks %q:\n%s", want, stdout)
		}
	}
	res, err := results.ReadJSON(out)
	if err != nil || res.Totals.Operations != 400 || res.Merged == nil {
		t.Fatalf("--out: %v, %+v", err, res)
	}

	code, stdout, _ = runCLI(t, context.Background(), nil, "merge", a, bLog, "--format", "json")
	var js results.Result
	if code != 0 || json.Unmarshal([]byte(stdout), &js) != nil || js.Totals.Operations != 400 || js.Schema != results.Schema {
		t.Errorf("--format json: exit %d, %.200s", code, stdout)
	}

	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no files", []string{"merge"}, ExitUsage, "nothing to merge"},                                              // forgot the inputs
		{"bad format", []string{"merge", a, "--format", "html"}, ExitUsage, "want console or json"},                 // not a format
		{"missing file", []string{"merge", a, filepath.Join(dir, "nope.json")}, ExitUnreadable, "nope.json"},        // a typo
		{"other workload", []string{"merge", a, other}, ExitInvalid, `ran workload "flights"`},                      // not one run
		{"unwritable out", []string{"merge", a, "--out", filepath.Join(dir, "no", "x.json")}, ExitOutput, "x.json"}, // checked first
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, context.Background(), nil, tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d (want %d), stderr %q (want %q)", code, tt.code, stderr, tt.want)
			}
		})
	}
}

// TestNothingMeasuredIsRefused is issue 25 #3: compare against a results
// file holding only its schema line, or of a run that measured 0
// operations, printed "18,262 -> 0 (-100.0%)" and, with an objective,
// "meets every objective". compare, report and merge now refuse such an
// input: exit 24, one line naming the file.
func TestNothingMeasuredIsRefused(t *testing.T) {
	dir := t.TempDir()
	a, _ := writeProcess(t, dir, 0, "flights")
	schemaOnly := filepath.Join(dir, "schema.json")
	if err := os.WriteFile(schemaOnly, []byte(`{"schema": "`+results.Schema+`"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := results.ReadJSON(a)
	if err != nil {
		t.Fatal(err)
	}
	for i := range res.Operations { // a run interrupted in its warm-up
		res.Operations[i] = results.Operation{Name: res.Operations[i].Name, Type: res.Operations[i].Type}
	}
	res.Totals, res.Intervals = results.Totals{}, nil
	zero := filepath.Join(dir, "zero.json")
	if err := results.WriteJSON(zero, res); err != nil {
		t.Fatal(err)
	}
	for _, empty := range []string{schemaOnly, zero} {
		for _, args := range [][]string{
			{"compare", a, empty, "--objective", "p99<=+5%"},
			{"report", empty},
			{"report", "compare", a, empty},
			{"merge", a, empty},
		} {
			code, stdout, stderr := runCLI(t, context.Background(), nil, args...)
			if code != ExitNothing || !strings.Contains(stderr, "nothing measured") || !strings.Contains(stderr, filepath.Base(empty)) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("%v: exit %d, stderr %q; want %d and one line naming the file", args, code, stderr, ExitNothing)
			}
			if strings.Contains(stdout, "meets every objective") {
				t.Errorf("%v: %s", args, stdout)
			}
		}
	}
}
