package watch

import (
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/workload"
)

// watcher is one watcher's streams and figures. Its streams' readers
// record under mu: one histogram per watcher, not per stream (a watcher
// may hold hundreds of streams, and a histogram is ~190 KB).
type watcher struct {
	spec    *workload.Watcher
	streams []Stream

	mu       sync.Mutex
	all, iv  *hdrhistogram.Histogram // lag in µs: the measured phase's, this interval's
	events   int64
	ivEvents int64
	afterEnd int64
	negative int64
	trend    []float64 // each interval's median lag (ms), intervals with events only
	endMax   float64   // the largest lag (ms) among the events received after the end
	failed   error     // the first error that ended one of its streams
}

func newWatcher(spec *workload.Watcher) *watcher {
	return &watcher{spec: spec, all: metrics.NewHistogram(), iv: metrics.NewHistogram()}
}

// record counts one event received at now. Its lag is from the lag field
// when the watcher names one and the event carries it, else from the
// commit; a lag below zero (clocks apart) is recorded as 0 and counted.
func (w *watcher) record(ev workload.ChangeEvent, now time.Time, afterEnd bool) {
	from := ev.Commit
	if w.spec.LagField != "" && !ev.Field.IsZero() {
		from = ev.Field
	}
	lag := now.Sub(from)
	w.mu.Lock()
	defer w.mu.Unlock()
	if lag < 0 {
		w.negative++
	}
	us := metrics.Micros(lag)
	_ = w.all.RecordValue(us)
	_ = w.iv.RecordValue(us)
	w.events++
	w.ivEvents++
	if afterEnd {
		w.afterEnd++
		w.endMax = max(w.endMax, float64(us)/1000)
	}
}

// fail keeps the first error that ended one of the watcher's streams,
// and says whether it was the first.
func (w *watcher) fail(err error) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.failed != nil {
		return false
	}
	w.failed = err
	return true
}

func (w *watcher) reset() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.all.Reset()
	w.iv.Reset()
	w.events, w.ivEvents, w.afterEnd, w.negative = 0, 0, 0, 0
	w.trend = nil
}

func (w *watcher) interval() results.WatcherInterval {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := results.WatcherInterval{Name: w.spec.Name, Events: w.ivEvents}
	if w.ivEvents > 0 {
		out.LagP50 = ms(w.iv.ValueAtQuantile(50))
		out.LagP99 = ms(w.iv.ValueAtQuantile(99))
		out.LagMax = ms(metrics.ReportedMax(w.iv))
		w.trend = append(w.trend, out.LagP50)
	}
	w.iv.Reset()
	w.ivEvents = 0
	return out
}

// result is the watcher's figures. undrained: its streams had not caught
// up within DrainLimit; cut: the drain was cut short (an interrupt), so
// they had not caught up either, and their pace cannot be judged.
func (w *watcher) result(seconds float64, undrained, cut bool) results.Watcher {
	w.mu.Lock()
	defer w.mu.Unlock()
	r := results.Watcher{
		Name: w.spec.Name, Target: w.spec.Target(), Streams: len(w.streams), Events: w.events,
		LagFrom: lagFrom(w.spec), AfterEnd: w.afterEnd, Undrained: undrained || cut,
		Lag: results.WatchLag{Count: w.all.TotalCount(), Negative: w.negative},
	}
	for _, st := range w.streams {
		r.Resumes += st.Resumes()
	}
	if seconds > 0 {
		r.EventsPerSecond = float64(w.events) / seconds
	}
	if w.events > 0 {
		h := w.all
		r.Lag.P50, r.Lag.P95, r.Lag.P99, r.Lag.P999 = ms(h.ValueAtQuantile(50)), ms(h.ValueAtQuantile(95)), ms(h.ValueAtQuantile(99)), ms(h.ValueAtQuantile(99.9))
		r.Lag.Max, r.Lag.Mean = ms(metrics.ReportedMax(h)), h.Mean()/1000
	}
	if w.failed != nil {
		r.Failed = w.failed.Error()
	}
	if w.failed != nil || cut {
		return r // stopped before the end: no verdict on its pace
	}
	r.FallingBehind, r.Verdict = judge(w.trend, undrained, w.endMax)
	return r
}

func ms(us int64) float64 { return float64(us) / 1000 }
