package sink

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/results/resultstest"
)

// TestYCSBStatusGolden protects YCSB's status lines: one per status
// interval (here 2 s over 1 s intervals) with cumulative operations, the
// interval's rate and an estimate of the time left, then a final line.
func TestYCSBStatusGolden(t *testing.T) {
	var b bytes.Buffer
	for _, tt := range []struct {
		r *resultstest.Run
		o YCSBStatusOptions
	}{
		// closed loop, an operation count to estimate completion from
		{resultstest.ClosedRun(), YCSBStatusOptions{StatusInterval: 2 * time.Second, Operations: 60000, Location: time.UTC}},
		// open loop: service times, then Intended- latencies
		{resultstest.OpenRun(), YCSBStatusOptions{StatusInterval: 2 * time.Second, Location: time.UTC}},
	} {
		s := NewYCSBStatusSink(&b, tt.o)
		for i, iv := range tt.r.Ivs {
			s.Interval(NewSnapshot(iv, time.Duration(i+1)*time.Second))
		}
		if err := s.Close(tt.r.Result()); err != nil {
			t.Fatal(err)
		}
	}
	resultstest.Golden(t, "ycsb-status.golden", b.Bytes())
}

// TestYCSBStatusSinkReportsWriteErrors: a failing writer is reported by Close.
func TestYCSBStatusSinkReportsWriteErrors(t *testing.T) {
	want := errors.New("pipe closed")
	s := NewYCSBStatusSink(failWriter{want}, YCSBStatusOptions{StatusInterval: time.Second})
	r := resultstest.ClosedRun()
	s.Interval(NewSnapshot(r.Ivs[0], time.Second))
	if err := s.Close(nil); !errors.Is(err, want) {
		t.Errorf("Close() = %v, want %v", err, want)
	}
}

// TestYCSBStatusFormats protects the number formats of YCSB's status lines.
func TestYCSBStatusFormats(t *testing.T) {
	decimals := []struct {
		f    float64
		want string
	}{
		{1953.125, "1953.12"}, // a tie rounds to even
		{1953.135, "1953.13"}, // 1953.13499... in binary: down, as Java
		{312.96067, "312.96"}, // two decimals
		{4138, "4138"},        // no trailing zeros
		{0.5, ".5"},           // no lone integer zero
		{0, "0"},              // zero
		{0.001, "0"},          // rounds to zero
		{2.10, "2.1"},         // trailing zero dropped
	}
	for _, tt := range decimals {
		if got := decimal2(tt.f); got != tt.want {
			t.Errorf("decimal2(%v) = %q, want %q", tt.f, got, tt.want)
		}
	}
	remains := map[int64]string{0: "0 second ", 9: "9 second ", 10: "10 seconds ", 59: "59 seconds ", 60: "1 minute ", 150: "2 minutes ",
		3600: "1 hour ", 7380: "2 hours 3 minutes ", 90000: "1 day 1 hour ", 172800: "2 days "}
	for s, want := range remains {
		if got := remaining(s); got != want {
			t.Errorf("remaining(%d) = %q, want %q", s, got, want)
		}
	}
}
