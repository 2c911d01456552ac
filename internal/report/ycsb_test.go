package report

import (
	"bytes"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/results/resultstest"
)

// TestWriteYCSBGolden protects YCSB's end-of-run lines, which scripts
// parse: the closed-loop fixture (errors give Return=ERROR, the operation
// never run has no section) and the open-loop one (service time under the
// operation's name, [Intended-NAME] after), with YCSB's default percentiles
// and with hdrhistogram.percentiles=50,90,99.9,99.99.
func TestWriteYCSBGolden(t *testing.T) {
	var b bytes.Buffer
	if err := WriteYCSB(&b, resultstest.ClosedRun().Result(), YCSBOptions{}); err != nil {
		t.Fatal(err)
	}
	b.WriteString("--- open loop, hdrhistogram.percentiles=50,90,99.9,99.99\n")
	if err := WriteYCSB(&b, resultstest.OpenRun().Result(), YCSBOptions{Percentiles: []float64{50, 90, 99.9, 99.99}}); err != nil {
		t.Fatal(err)
	}
	golden(t, "ycsb.golden", b.Bytes())
}

// TestYCSBStatusGolden protects YCSB's status lines: one per status
// interval (here 2 s over 1 s intervals) with cumulative operations, the
// interval's rate and an estimate of the time left, then a final line.
func TestYCSBStatusGolden(t *testing.T) {
	var b bytes.Buffer
	for _, tt := range []struct {
		r *resultstest.Run
		o YCSBOptions
	}{
		// closed loop, an operation count to estimate completion from
		{resultstest.ClosedRun(), YCSBOptions{StatusInterval: 2 * time.Second, Operations: 60000, Location: time.UTC}},
		// open loop: service times, then Intended- latencies
		{resultstest.OpenRun(), YCSBOptions{StatusInterval: 2 * time.Second, Location: time.UTC}},
	} {
		s := NewYCSBStatusSink(&b, tt.o)
		for i, iv := range tt.r.Ivs {
			s.Interval(iv, time.Duration(i+1)*time.Second)
		}
		if err := s.Close(tt.r.Result()); err != nil {
			t.Fatal(err)
		}
	}
	golden(t, "ycsb-status.golden", b.Bytes())
}

// TestYCSBStatusSinkReportsWriteErrors: a failing writer is reported by Close.
func TestYCSBStatusSinkReportsWriteErrors(t *testing.T) {
	want := errors.New("pipe closed")
	s := NewYCSBStatusSink(failWriter{want}, YCSBOptions{StatusInterval: time.Second})
	r := resultstest.ClosedRun()
	s.Interval(r.Ivs[0], time.Second)
	if err := s.Close(nil); !errors.Is(err, want) {
		t.Errorf("Close() = %v, want %v", err, want)
	}
}

// TestJavaFormats protects the number formats YCSB's Java prints.
func TestJavaFormats(t *testing.T) {
	doubles := []struct {
		f    float64
		want string
	}{
		{312.96067415730334, "312.96067415730334"}, // shortest round trip
		{4138, "4138.0"},                         // whole numbers keep ".0"
		{1953.125, "1953.125"},                   // the seed's throughput
		{0, "0.0"},                               // zero
		{1e7, "1.0E7"},                           // scientific from 10^7
		{12345678.9, "1.23456789E7"},             // mantissa and exponent
		{0.00012, "1.2E-4"},                      // and below 10^-3
		{0.001, "0.001"},                         // 10^-3 is still plain
		{math.NaN(), "NaN"},                      // a run of 0 ms
		{math.Inf(1), "Infinity"},                // as Java writes it
		{-2.5, "-2.5"},                           // negative
		{9999999.999999998, "9999999.999999998"}, // just below 10^7
	}
	for _, tt := range doubles {
		if got := javaDouble(tt.f); got != tt.want {
			t.Errorf("javaDouble(%v) = %q, want %q", tt.f, got, tt.want)
		}
	}
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
	ordinals := map[float64]string{50: "50th", 95: "95th", 99: "99th", 1: "1st", 2: "2nd", 3: "3rd", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 99.9: "99.9", 99.99: "99.99"}
	for p, want := range ordinals {
		if got := ordinal(p); got != want {
			t.Errorf("ordinal(%v) = %q, want %q", p, got, want)
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
