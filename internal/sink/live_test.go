package sink

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/results/resultstest"
)

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

	// The first interval of a run, cut to two operations.
	first := resultstest.ClosedRun().Ivs[0]
	two := &metrics.Interval{Start: first.Start, End: first.End, Ops: first.Ops[:2], Load: first.Load}

	var b bytes.Buffer
	// two operations: the documented one-line shape
	b.WriteString(LiveLine(results.Summarize(two, time.Second)))
	// eight operations wrap three to a line, errors by class at the end
	b.WriteString(LiveLine(many))
	// an empty, zero-length interval: no rates, dashes for p99
	b.WriteString(LiveLine(results.Summarize(r.Interval(resultstest.T0.Add(2*time.Second)), 12*time.Second)))
	resultstest.Golden(t, "live.golden", b.Bytes())
}

// TestLiveSinkReportsWriteErrors protects against a live sink failing
// silently: its first write error comes back from Close.
func TestLiveSinkReportsWriteErrors(t *testing.T) {
	want := errors.New("terminal gone")
	s := NewLiveSink(failWriter{want})
	r := resultstest.ClosedRun()
	s.Interval(NewSnapshot(r.Ivs[0], time.Second))
	s.Interval(NewSnapshot(r.Ivs[1], 2*time.Second))
	if err := s.Close(nil); !errors.Is(err, want) {
		t.Errorf("Close() = %v, want %v", err, want)
	}
}

// TestMsShort: the live line's latencies, about three significant digits.
func TestMsShort(t *testing.T) {
	tests := []struct{ got, want string }{
		{msShort(0.412), "0.41ms"}, // sub-millisecond
		{msShort(2.31), "2.31ms"},  // three significant digits
		{msShort(40.13), "40.1ms"}, // tens
		{msShort(512.4), "512ms"},  // hundreds
		{msShort(1234), "1.23s"},   // switch to seconds
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

type failWriter struct{ err error }

func (f failWriter) Write([]byte) (int, error) { return 0, f.err }

// TestLiveSkipsTheCutInterval: the live line leaves out the run's last
// interval when its end cut it to under half the others (results.Partial,
// the charts' rule), and only then.
func TestLiveSkipsTheCutInterval(t *testing.T) {
	for _, tt := range []struct {
		name  string
		dts   []time.Duration
		lines int
	}{
		{"cut to 0.3 of 1s", []time.Duration{time.Second, time.Second, 300 * time.Millisecond}, 2},
		{"cut to 0.6 of 1s", []time.Duration{time.Second, time.Second, 600 * time.Millisecond}, 3},
		{"0.3s intervals, a last one of 0.1s", []time.Duration{300 * time.Millisecond, 300 * time.Millisecond, 100 * time.Millisecond}, 2},
		{"a run shorter than one interval", []time.Duration{300 * time.Millisecond}, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			s := NewLiveSink(&b)
			start := time.Now()
			var elapsed time.Duration
			for _, dt := range tt.dts {
				elapsed += dt
				h := metrics.NewHistogram()
				_ = h.RecordValue(1000)
				s.Interval(NewSnapshot(&metrics.Interval{Start: start, End: start.Add(dt), Ops: []metrics.OpInterval{{Name: "get", Latency: h}}}, elapsed))
				start = start.Add(dt)
			}
			if got := strings.Count(b.String(), "ops/s"); got != tt.lines {
				t.Errorf("%d live lines; want %d:\n%s", got, tt.lines, b.String())
			}
		})
	}
}
