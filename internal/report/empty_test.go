package report

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
)

// docsResult records n operations of each of a find and a delete, with
// known document counts, and builds the result.
func docsResult(t *testing.T, threshold float64) (*results.Result, metrics.Docs, metrics.Docs) {
	t.Helper()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rec := metrics.NewRecorder([]string{"find_some", "delete_none"}, metrics.Options{Shards: 1})
	rec.Reset(t0)
	var find, del metrics.Docs
	for i := range 100 {
		f := metrics.Docs{Returned: int64(i % 4), Shaped: 1}
		if i%4 == 0 {
			f.Empty = 1
		}
		d := metrics.Docs{Shaped: 1, Empty: 1}
		if i < 30 {
			d = metrics.Docs{Shaped: 1, Deleted: 1}
		}
		rec.Shard(0).RecordDocs(0, time.Millisecond, f)
		rec.Shard(0).RecordDocs(1, time.Millisecond, d)
		find.Add(f)
		del.Add(d)
	}
	tot := metrics.NewTotals(rec.Ops(), false)
	iv := rec.Interval(t0.Add(time.Second))
	tot.Add(iv)
	info := results.RunInfo{OpTypes: map[string]string{"find_some": "find", "delete_none": "deleteOne"}, EmptyThreshold: threshold,
		MissCauses: map[string]string{"delete_none": "a stated cause"}}
	return results.Build(info, tot, []results.IntervalSummary{results.Summarize(iv, time.Second)}), find, del
}

// TestDocsInEveryReport: the document counts recorded reach the results,
// the CSV, Markdown and console reports, and the empty share is flagged
// above the threshold only: the oracle is the arithmetic of what was
// recorded (75 of 100 finds returned 0+1+2+3 documents per four; 70 of 100
// deletes deleted nothing).
func TestDocsInEveryReport(t *testing.T) {
	res, find, del := docsResult(t, 0)
	if find.Returned != 150 || find.Empty != 25 || del.Empty != 70 || del.Deleted != 30 {
		t.Fatalf("the test's own arithmetic is off: %+v %+v", find, del)
	}
	if *res.Operations[0].Docs != find || *res.Operations[1].Docs != del || res.Totals.Docs.Returned != 150 || res.Totals.Docs.Deleted != 30 {
		t.Fatalf("results: %+v %+v totals %+v", res.Operations[0].Docs, res.Operations[1].Docs, res.Totals.Docs)
	}
	want := "delete_none: 70% of deletes deleted no document (70 of 100): a stated cause"
	if len(res.Notes) != 1 || res.Notes[0] != want {
		t.Fatalf("notes %q, want only %q", res.Notes, want)
	}
	dir := t.TempDir()
	if _, err := WriteResultCSV(dir, res); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "operations.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := func(name string) int {
		for i, h := range rows[0] {
			if h == name {
				return i
			}
		}
		t.Fatalf("operations.csv has no column %s", name)
		return 0
	}
	if rows[1][col("returned")] != "150" || rows[2][col("deleted")] != "30" || rows[2][col("empty")] != "70" || rows[2][col("shaped")] != "100" {
		t.Errorf("operations.csv: %v", rows)
	}
	var md, console bytes.Buffer
	if err := WriteResultMarkdown(&md, res); err != nil {
		t.Fatal(err)
	}
	if err := WriteConsole(&console, res); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"markdown": md.String(), "console": console.String()} {
		note := want
		if name == "markdown" {
			note = mdEscape(want)
		}
		if !strings.Contains(out, "70.0%") || !strings.Contains(out, "150") || !strings.Contains(out, note) {
			t.Errorf("%s report lacks the documents table or the note:\n%s", name, out)
		}
	}
	// Above the threshold only.
	for _, tc := range []struct {
		threshold float64
		notes     int
	}{{0.69, 1}, {0.7, 0}, {0.2, 2}, {1, 0}} {
		if res, _, _ := docsResult(t, tc.threshold); len(res.Notes) != tc.notes {
			t.Errorf("threshold %v: notes %q, want %d", tc.threshold, res.Notes, tc.notes)
		}
	}
}
