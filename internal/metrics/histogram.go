package metrics

import (
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// The geometry of every mongoload histogram. Values are microseconds. Keeping
// it fixed means histograms from any interval, run or process can be added
// bucket for bucket, so merged percentiles are exact, not estimates.
const (
	LowestMicros  int64 = 1
	HighestMicros int64 = int64(time.Hour / time.Microsecond)
	SigFigs             = 3
)

// Highest is the longest latency a histogram tracks. Longer latencies are
// recorded as Highest and counted as overflow.
const Highest = time.Hour

// NewHistogram returns an empty histogram with mongoload's geometry: values
// in microseconds from 1 µs to 1 h at 3 significant digits (about 190 KB).
func NewHistogram() *hdrhistogram.Histogram {
	return hdrhistogram.New(LowestMicros, HighestMicros, SigFigs)
}

// Micros is d in microseconds as every mongoload histogram records it (see
// micros): the one conversion, so that the slow-operation histograms of
// internal/insights agree with the run's own to the microsecond.
func Micros(d time.Duration) int64 {
	v, _ := micros(d)
	return v
}

// micros converts d to microseconds, rounded to the nearest one and clamped to
// [0, HighestMicros]; clamped reports a d above Highest. Rounding rather than
// truncating keeps the recorded mean unbiased by half a microsecond.
// Negative durations cannot come from a monotonic clock; they become 0.
func micros(d time.Duration) (v int64, clamped bool) {
	if d <= 0 {
		return 0, false
	}
	if d > Highest {
		return HighestMicros, true
	}
	return int64((d + time.Microsecond/2) / time.Microsecond), false
}

// ReportedMax is h's max as Java's HdrHistogram reports it (0 when empty),
// capped at HighestMicros.
func ReportedMax(h *hdrhistogram.Histogram) int64 {
	if h.TotalCount() == 0 {
		return 0
	}
	return min(h.Max(), HighestMicros)
}
