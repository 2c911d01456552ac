package replay

import (
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
)

// Lag records how late each operation was sent after its scheduled time
// (engine.Options.SendLag): one histogram for the run, and the largest lag
// of each interval. Runners call Record concurrently; a replay's rates
// are a captured application's, so one lock does.
type Lag struct {
	mu       sync.Mutex
	h        *hdrhistogram.Histogram
	start    time.Time
	interval time.Duration
	byIv     []time.Duration
}

// NewLag makes a recorder of intervals of the given width.
func NewLag(interval time.Duration) *Lag {
	return &Lag{h: metrics.NewHistogram(), interval: max(interval, time.Millisecond)}
}

// Start starts the intervals' clock (the measured phase's start).
func (l *Lag) Start(t time.Time) {
	l.mu.Lock()
	l.start = t
	l.mu.Unlock()
}

// Record is engine.Options.SendLag.
func (l *Lag) Record(d time.Duration) {
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	_ = l.h.RecordValue(max(metrics.Micros(d), metrics.LowestMicros)) // its range starts at the floor
	if l.start.IsZero() {
		return
	}
	i := int(now.Sub(l.start) / l.interval)
	for len(l.byIv) <= i {
		l.byIv = append(l.byIv, 0)
	}
	l.byIv[i] = max(l.byIv[i], d)
}

// Summary is the lag's distribution and its per-interval maxima, in ms;
// nil when nothing was sent.
func (l *Lag) Summary() (*results.Percentiles, []float64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.h.TotalCount() == 0 {
		return nil, nil
	}
	ms := func(us int64) float64 { return results.Round3(float64(us) / 1e3) }
	p := &results.Percentiles{P50: ms(l.h.ValueAtQuantile(50)), P90: ms(l.h.ValueAtQuantile(90)), P99: ms(l.h.ValueAtQuantile(99)),
		P999: ms(l.h.ValueAtQuantile(99.9)), Max: ms(l.h.Max()), Mean: results.Round3(l.h.Mean() / 1e3)}
	by := make([]float64, len(l.byIv))
	for i, d := range l.byIv {
		by[i] = results.Round3(float64(d) / 1e6)
	}
	return p, by
}
