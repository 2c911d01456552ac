package report_test

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/analysis"
	"github.com/mongoload/mongoload/internal/report"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/results/resultstest"
)

// analysedSweep is seed 000's workload #1 as a synthetic sweep, analysed,
// with server telemetry from 48 workers on and an interrupted last step.
func analysedSweep(t *testing.T) *results.Sweep {
	t.Helper()
	steps := resultstest.Seed000()
	cpu := 3.6
	for i := 4; i < len(steps); i++ {
		steps[i].Server = resultstest.ServerSample(0.62, 0.04, &cpu)
	}
	steps = append(steps, resultstest.Step{Level: 160, Throughput: 500, LatencyMs: 12, Partial: true})
	sw := resultstest.Sweep("concurrency", "primary", steps)
	sw.Cost = &results.Cost{Monthly: 797.76, Currency: "EUR"}
	sw.Notes = []string{"the sweep stopped early, interrupted during step 10 (160 workers): its partial measurements are kept but not judged; 9 of 10 steps finished and are analysed"}
	a, err := analysis.AnalyseSweep(sw, analysis.DefaultSweepOptions())
	if err != nil {
		t.Fatal(err)
	}
	sw.Analysis = a
	return sw
}

func TestSweepConsoleGolden(t *testing.T) {
	var b bytes.Buffer
	if err := report.WriteSweepConsole(&b, analysedSweep(t)); err != nil {
		t.Fatal(err)
	}
	resultstest.Golden(t, "sweep.golden", b.Bytes())
}

func TestSweepMarkdownGolden(t *testing.T) {
	var b bytes.Buffer
	if err := report.WriteSweepMarkdown(&b, analysedSweep(t)); err != nil {
		t.Fatal(err)
	}
	resultstest.Golden(t, "sweep.golden.md", b.Bytes())
}

// The CSV files of a sweep, concatenated in name order with a line naming
// each, against one golden file.
func TestSweepCSVGolden(t *testing.T) {
	dir := t.TempDir()
	files, err := report.WriteSweepCSV(dir, analysedSweep(t))
	if err != nil {
		t.Fatal(err)
	}
	resultstest.Golden(t, "sweep-csv.golden", catFiles(t, files))
}

func TestSweepRoundTrip(t *testing.T) {
	sw := analysedSweep(t)
	path := filepath.Join(t.TempDir(), "sweep.json")
	if err := results.WriteSweep(path, sw); err != nil {
		t.Fatal(err)
	}
	f, err := results.Read(path)
	if err != nil || f.Sweep == nil {
		t.Fatalf("Read of a sweep: %+v %v", f, err)
	}
	back := f.Sweep
	if back.Schema != results.SweepSchema || len(back.Steps) != len(sw.Steps) || back.Analysis.Limit != sw.Analysis.Limit || len(back.Steps[2].Result.Intervals) != resultstest.Seconds {
		t.Errorf("round trip lost data: %+v", back.Analysis.Limit)
	}
	if f.Result != nil || f.AB != nil {
		t.Errorf("Read of a sweep: %+v", f)
	}
	// A results file is not a sweep, and the other way round.
	if err := results.WriteJSON(path, sw.Steps[0].Result); err != nil {
		t.Fatal(err)
	}
	if f, err := results.Read(path); err != nil || f.Result == nil || f.Sweep != nil || f.AB != nil {
		t.Errorf("Read of a results file: %+v %v", f, err)
	}
	os.WriteFile(path, []byte(`{"schema":"mongoload.sweep/v9"}`), 0o644)
	if _, err := results.Read(path); err == nil || !strings.Contains(err.Error(), "not supported") {
		t.Errorf("a future version: %v", err)
	}
}

func comparison(t *testing.T) *results.Comparison {
	t.Helper()
	var in []analysis.CompareInput
	for i, v := range []struct {
		label     string
		cost      float64
		tput, lat float64
	}{{"m3-xlarge-8", 797.76, 650, 11.5}, {"c4-xlarge-4", 694.08, 610, 12.3}, {"s3-2xlarge-8", 1180.08, 1625, 4.6}} {
		res := resultstest.Result(results.LoadModel{Type: results.Closed, Concurrency: 75}, resultstest.Step{Level: 75, Throughput: v.tput, LatencyMs: v.lat}, resultstest.T0, v.label)
		res.Cost = &results.Cost{Monthly: v.cost, Currency: "EUR"}
		in = append(in, analysis.CompareInput{File: string(rune('a'+i)) + ".json", Result: res})
	}
	var objs []analysis.RelObjective
	for _, s := range []string{"throughput>=2x", "read.p95<=+5%"} {
		o, _ := analysis.ParseRelObjective(s)
		objs = append(objs, o)
	}
	c, err := analysis.Compare(in, 0, objs)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestComparisonGolden(t *testing.T) {
	var b bytes.Buffer
	if err := report.WriteComparisonConsole(&b, comparison(t)); err != nil {
		t.Fatal(err)
	}
	resultstest.Golden(t, "compare.golden", b.Bytes())
	b.Reset()
	if err := report.WriteComparisonMarkdown(&b, comparison(t)); err != nil {
		t.Fatal(err)
	}
	resultstest.Golden(t, "compare.golden.md", b.Bytes())
	files, err := report.WriteComparisonCSV(t.TempDir(), comparison(t))
	if err != nil {
		t.Fatal(err)
	}
	resultstest.Golden(t, "compare-csv.golden", catFiles(t, files))
}

func TestResultMarkdownGolden(t *testing.T) {
	res := resultstest.Result(results.LoadModel{Type: results.Closed, Concurrency: 32}, resultstest.Step{Level: 32, Throughput: 1301.8, LatencyMs: 2.45, ClientCPU: 0.12}, resultstest.T0, "primary")
	var b bytes.Buffer
	if err := report.WriteResultMarkdown(&b, res); err != nil {
		t.Fatal(err)
	}
	resultstest.Golden(t, "result.golden.md", b.Bytes())
	files, err := report.WriteResultCSV(t.TempDir(), res)
	if err != nil {
		t.Fatal(err)
	}
	resultstest.Golden(t, "result-csv.golden", catFiles(t, files))
}

func catFiles(t *testing.T, files []string) []byte {
	t.Helper()
	sort.Strings(files)
	var b bytes.Buffer
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString("== " + filepath.Base(f) + "\n")
		b.Write(data)
	}
	return b.Bytes()
}
