package report

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/results/resultstest"
)

// TestWriteConsoleGolden protects the final report people read.
func TestWriteConsoleGolden(t *testing.T) {
	interrupted := resultstest.BaseInfo(results.LoadModel{Type: results.Sessions, Sessions: 1000, ThinkTime: "exp(2s)"})
	interrupted.Outcome, interrupted.Reason = results.Interrupted, "interrupt signal during warm-up"
	interrupted.Label = ""

	tests := []struct {
		name string
		res  *results.Result
	}{
		// errors by class, an operation never run (dashes), an overflow note
		{"closed.golden", resultstest.ClosedRun().Result()},
		// open loop: latency from the scheduled start, service time table
		{"open.golden", resultstest.OpenRun().Result()},
		// stopped before measuring: no table rows but TOTAL, a note says why
		{"interrupted.golden", results.Build(interrupted, metrics.NewTotals([]string{"browse"}, false), nil)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteConsole(&b, tt.res); err != nil {
				t.Fatal(err)
			}
			golden(t, tt.name, b.Bytes())
		})
	}
}

// TestLiveLineGolden protects the per-interval progress line, including
// wrapping at many operations.
func TestLiveLineGolden(t *testing.T) {
	eight := []string{"find_by_id", "update_seats", "insert_booking", "search_flights",
		"cancel_booking", "list_bookings", "agg_revenue", "delete_old"}
	r := metrics.NewRecorder(eight, metrics.Options{Shards: 1})
	r.Reset(resultstest.T0)
	s := r.Shard(0)
	for i := range 9000 {
		s.Record(i%len(eight), time.Duration(100+i%(800*(1+i%len(eight))))*time.Microsecond)
	}
	s.RecordError(2, "timeout")
	s.RecordError(2, "timeout")
	s.RecordError(3, "network")
	many := results.Summarize(r.Interval(resultstest.T0.Add(2*time.Second)), 12*time.Second)

	// The first interval of a run, cut to two operations: a new interval,
	// since a summarised one is immutable (its summary is memoised).
	first := resultstest.ClosedRun().Ivs[0]
	two := &metrics.Interval{Start: first.Start, End: first.End, Ops: first.Ops[:2], Load: first.Load}

	var b bytes.Buffer
	// two operations: the documented one-line shape
	b.WriteString(LiveLine(results.Summarize(two, time.Second)))
	// eight operations wrap three to a line, errors by class at the end
	b.WriteString(LiveLine(many))
	// an empty, zero-length interval: no rates, dashes for p99
	b.WriteString(LiveLine(results.Summarize(r.Interval(resultstest.T0.Add(2*time.Second)), 12*time.Second)))
	golden(t, "live.golden", b.Bytes())
}

// TestLiveSinkReportsWriteErrors protects against a live sink failing
// silently: its first write error comes back from Close.
func TestLiveSinkReportsWriteErrors(t *testing.T) {
	want := errors.New("terminal gone")
	s := NewLiveSink(failWriter{want})
	r := resultstest.ClosedRun()
	s.Interval(r.Ivs[0], time.Second)
	s.Interval(r.Ivs[1], 2*time.Second)
	if err := s.Close(nil); !errors.Is(err, want) {
		t.Errorf("Close() = %v, want %v", err, want)
	}
}

type failWriter struct{ err error }

func (f failWriter) Write([]byte) (int, error) { return 0, f.err }
