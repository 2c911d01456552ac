package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/results/resultstest"
	"github.com/mongoload/mongoload/internal/sink"
)

// TestFanoutWithRealSinks protects the usual wiring: live progress, the
// results file and the console report through one Fanout.
func TestFanoutWithRealSinks(t *testing.T) {
	r := resultstest.ClosedRun()
	path := filepath.Join(t.TempDir(), "r.json")
	var live, console strings.Builder
	f := sink.NewFanout(NewLiveSink(&live), NewJSONSink(path, r.Info), NewConsoleSink(&console))
	for i, iv := range r.Ivs {
		f.Interval(iv, time.Duration(i+1)*time.Second)
	}
	if err := f.Close(results.Build(r.Info, r.Totals, nil)); err != nil {
		t.Fatal(err)
	}
	got, err := results.ReadJSON(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Intervals) != len(r.Ivs) || got.Intervals[4].T != 5 {
		t.Errorf("results file has %d intervals, want %d", len(got.Intervals), len(r.Ivs))
	}
	if n := strings.Count(live.String(), "\n"); n != len(r.Ivs) {
		t.Errorf("live sink wrote %d lines, want %d", n, len(r.Ivs))
	}
	if !strings.Contains(console.String(), "TOTAL") {
		t.Errorf("console report missing:\n%s", console.String())
	}
}

// TestJSONSinkWithoutResult protects a crashed run's data: with no result,
// the JSON sink still writes what it received.
func TestJSONSinkWithoutResult(t *testing.T) {
	r := resultstest.OpenRun()
	path := filepath.Join(t.TempDir(), "r.json")
	s := NewJSONSink(path, r.Info)
	for i, iv := range r.Ivs {
		s.Interval(iv, time.Duration(i+1)*time.Second)
	}
	if err := s.Close(nil); err != nil {
		t.Fatal(err)
	}
	got, err := results.ReadJSON(path)
	if err != nil {
		t.Fatal(err)
	}
	want := r.Result()
	if got.Totals.Operations != want.Totals.Operations || got.Operations[0].Latency != want.Operations[0].Latency ||
		got.Operations[0].Service == nil || len(got.Intervals) != len(r.Ivs) {
		t.Errorf("fallback result differs: totals %+v, want %+v", got.Totals, want.Totals)
	}
	if !strings.Contains(strings.Join(got.Notes, "\n"), "ended without a result") {
		t.Errorf("notes %q do not say how the result was built", got.Notes)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
}
