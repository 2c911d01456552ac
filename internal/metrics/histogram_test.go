package metrics

import (
	"testing"
	"time"
)

// TestMicros protects the conversion every sample goes through: rounding to
// the nearest microsecond and clamping, with clamping reported.
func TestMicros(t *testing.T) {
	tests := []struct {
		name    string
		in      time.Duration
		want    int64
		clamped bool
	}{
		// a monotonic clock never goes back; treat it as 0, not as huge
		{"negative", -time.Second, 0, false},
		{"zero", 0, 0, false},
		// sub-microsecond rounds to nearest, so the mean is unbiased
		{"499ns rounds down", 499 * time.Nanosecond, 0, false},
		{"500ns rounds up", 500 * time.Nanosecond, 1, false},
		{"1.2345ms", 1234500 * time.Nanosecond, 1235, false},
		// exactly the highest trackable value is not overflow
		{"one hour", time.Hour, HighestMicros, false},
		// above it is clamped and reported
		{"one hour and 1ns", time.Hour + 1, HighestMicros, true},
		{"a day", 24 * time.Hour, HighestMicros, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, clamped := micros(tt.in)
			if got != tt.want || clamped != tt.clamped {
				t.Errorf("micros(%v) = %d, %v; want %d, %v", tt.in, got, clamped, tt.want, tt.clamped)
			}
		})
	}
}

// TestHistogramSize guards the memory arithmetic the sharding design rests
// on: if the geometry changes, the ~190 KB per histogram in the docs is wrong.
func TestHistogramSize(t *testing.T) {
	if got := NewHistogram().ByteSize(); got < 150<<10 || got > 200<<10 {
		t.Errorf("histogram is %d bytes; docs say about 190 KB", got)
	}
}
