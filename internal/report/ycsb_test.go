package report

import (
	"bytes"
	"math"
	"testing"

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
	resultstest.Golden(t, "ycsb.golden", b.Bytes())
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
	ordinals := map[float64]string{50: "50th", 95: "95th", 99: "99th", 1: "1st", 2: "2nd", 3: "3rd", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 99.9: "99.9", 99.99: "99.99"}
	for p, want := range ordinals {
		if got := ordinal(p); got != want {
			t.Errorf("ordinal(%v) = %q, want %q", p, got, want)
		}
	}
}
