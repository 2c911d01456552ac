package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/results"
)

// TestConsoleShowsEveryServerNote: the telemetry's notes (a restart, failed
// samples) are printed with the server section, not left to the JSON.
func TestConsoleShowsEveryServerNote(t *testing.T) {
	s := serverFixture(true)
	s.Notes = []string{"the server restarted during the run: its counters started again from 0", "2 of the samples failed"}
	var b bytes.Buffer
	ew := &errWriter{w: &b}
	writeServer(ew, &results.Result{Server: s, DurationSeconds: 5})
	for _, n := range s.Notes {
		if !strings.Contains(b.String(), "note: "+n) {
			t.Errorf("note %q missing from:\n%s", n, b.String())
		}
	}
}

// series is n intervals of dt seconds with the given successes each.
func series(dt float64, counts ...int64) []results.IntervalSummary {
	var ivs []results.IntervalSummary
	for i, c := range counts {
		ivs = append(ivs, results.IntervalSummary{T: dt * float64(i+1), Dt: dt, Ops: []results.OpSummary{{Name: "a", Count: c}}})
	}
	return ivs
}

// TestBuildFaults: gaps closer than GapMerge are one outage, counted as
// flaps; recovery is measured against the median before the gap, by hand.
func TestBuildFaults(t *testing.T) {
	start := time.Unix(1000, 0)
	at := func(s float64) time.Time { return start.Add(time.Duration(s * float64(time.Second))) }
	res := &results.Result{StartedAt: start, Totals: results.Totals{Errors: 7},
		// 100/s before; nothing in 3-5s; 50/s, then 95/s (>= 90% of 100) from the interval ending at 7s.
		Intervals: series(1, 100, 100, 100, 0, 0, 50, 95, 100)}
	res.Intervals[3].Ops[0].ErrorsByClass = map[string]int64{"network": 4}
	res.Intervals[4].Ops[0].ErrorsByClass = map[string]int64{"network": 1, "timeout": 2}
	results.BuildFaults(res, []results.Span{
		{Start: at(3.2), End: at(5.1)},
		{Start: at(5.5), End: at(5.6)}, // 0.4s later: the same outage
		{Start: at(7.5), End: at(8), Open: true},
	}, 3, nil)
	f := res.Faults
	if f == nil || len(f.Gaps) != 2 {
		t.Fatalf("faults %+v", f)
	}
	g := f.Gaps[0]
	if g.Start != 3.2 || g.End != 5.6 || g.Seconds != 2.4 || g.Flaps != 1 || g.Open {
		t.Errorf("first gap %+v; want 3.2 to 5.6, one flap", g)
	}
	// The first interval ending after 5.6 at >= 90/s ends at 7: 1.4s.
	if g.RecoverySeconds == nil || *g.RecoverySeconds != 1.4 {
		t.Errorf("recovery %v, want 1.4", g.RecoverySeconds)
	}
	if !f.Gaps[1].Open || f.Gaps[1].RecoverySeconds != nil {
		t.Errorf("second gap %+v: open, no recovery", f.Gaps[1])
	}
	if f.Lost != 10 || f.Abandoned != 3 {
		t.Errorf("lost %d (want 7 errors + 3 abandoned), abandoned %d", f.Lost, f.Abandoned)
	}
	if len(f.Timeline) != 2 || f.Timeline[0].T != 4 || f.Timeline[1].ErrorsByClass["timeout"] != 2 {
		t.Errorf("timeline %+v", f.Timeline)
	}
	var b bytes.Buffer
	writeFaults(&errWriter{w: &b}, res)
	for _, want := range []string{"10 operation(s) lost (7 errors, 3 abandoned in flight)", "1 brief recoveries", "throughput back to 90% of before 1.4s after",
		"still failing when the run ended", "network                      4s:4 5s:1", "timeout                      5s:2"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("console lacks %q:\n%s", want, b.String())
		}
	}
}

// TestNoFaultsNoSection: a run without gaps, abandoned operations or a
// fault schedule has no faults section.
func TestNoFaultsNoSection(t *testing.T) {
	res := &results.Result{Intervals: series(1, 10, 10)}
	results.BuildFaults(res, nil, 0, nil)
	if res.Faults != nil {
		t.Fatalf("faults %+v", res.Faults)
	}
}
