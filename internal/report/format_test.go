package report

import (
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/results"
)

// TestFormats protects the number formats of the console and live output.
func TestFormats(t *testing.T) {
	tests := []struct {
		got, want string
	}{
		{results.Thousands(0), "0"},                                       // no separator for small numbers
		{results.Thousands(999), "999"},                                   // just below the first separator
		{results.Thousands(1000), "1,000"},                                // first separator
		{results.Thousands(1234567), "1,234,567"},                         // several
		{results.Thousands(-1234), "-1,234"},                              // the sign stays in front
		{results.Rate(4119.96), "4,120.0"},                                // rounding carries into the separator
		{results.Rate(0), "0.0"},                                          // idle
		{results.Whole(8411.5), "8,412"},                                  // live rounds to whole ops/s
		{msFixed(1.2345), "1.234"},                                        // microsecond precision
		{seconds(59.96), "60.0s"},                                         // durations
		{results.Target(5000), "5,000"},                                   // a whole configured rate
		{results.Target(2.5), "2.5"},                                      // a fractional one
		{results.ShortDuration(time.Hour), "1h"},                          // no "0m0s"
		{results.ShortDuration(90 * time.Minute), "1h30m"},                // no "0s"
		{results.ShortDuration(90 * time.Second), "1m30s"},                // unchanged
		{results.Plural(1, "latency", "latencies"), "1 latency"},          // singular
		{results.Plural(1200, "latency", "latencies"), "1,200 latencies"}, // plural with separator
	}
	for i, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("case %d: got %q, want %q", i, tt.got, tt.want)
		}
	}
}
