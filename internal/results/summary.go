package results

import (
	"maps"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/procstat"
)

// IntervalSummary is one entry of a result's interval series.
type IntervalSummary struct {
	// Load is the load model's counts and gauges (open loop and ramps).
	Load *IntervalLoad `json:"load,omitempty"`
	T    float64       `json:"t"`  // seconds since the measured phase began, at the interval's end
	Dt   float64       `json:"dt"` // the interval's length in seconds
	Ops  []OpSummary   `json:"ops"`
	// Client is mongoload's own CPU use during the interval, where it was read.
	Client *IntervalClient `json:"client,omitempty"`
	// Watchers is each change-stream consumer during the interval.
	Watchers []WatcherInterval `json:"watchers,omitempty"`
}

// IntervalLoad is what the load model did during one interval.
type IntervalLoad struct {
	Scheduled  int64   `json:"scheduled,omitempty"`
	Dropped    int64   `json:"dropped,omitempty"`
	Late       int64   `json:"late,omitempty"`
	InFlight   int64   `json:"inFlight"`
	Active     int64   `json:"active"` // workers, sessions, or (open loop) operations in flight
	TargetRate float64 `json:"targetRate,omitempty"`
	// SchedulerBusy is the share of the interval the load model's one
	// scheduling goroutine (open-loop scheduler, sessions dispatcher) was
	// working, 0..1; SchedulerLagMs the furthest it fell behind a due time
	// (open loop). metrics.Load says why.
	SchedulerBusy  float64 `json:"schedulerBusy,omitempty"`
	SchedulerLagMs float64 `json:"schedulerLagMs,omitempty"`
}

// OpSummary is one operation during one interval; latencies in ms.
type OpSummary struct {
	Name string `json:"name"`
	// Parent names the transaction a step belongs to; not in totals (InMix).
	Parent        string           `json:"parent,omitempty"`
	Count         int64            `json:"count"`
	Rate          float64          `json:"rate"` // Count per second of the interval
	P50           float64          `json:"p50"`
	P95           float64          `json:"p95"`
	P99           float64          `json:"p99"`
	Max           float64          `json:"max"`
	Errors        int64            `json:"errors"`
	ErrorsByClass map[string]int64 `json:"errorsByClass,omitempty"`
	// Docs is what the server did with documents during the interval.
	Docs *metrics.Docs `json:"docs,omitempty"`
	// PercentilesUpperBound is set in a merged series where P50, P95 and P99
	// could not be computed from histograms: they are then the largest of
	// the processes' values, which bound the true percentile from above (to
	// within half a sample's rank per process, as HDR rounds ranks).
	PercentilesUpperBound bool `json:"percentilesUpperBound,omitempty"`
}

// Summarize reduces an interval to its series entry. elapsed is the time
// since the measured phase began, at the interval's end. Each percentile
// walks the histograms: a run summarises each interval once, on its
// collecting goroutine once the interval is complete (its ClientCPU
// stamped), and hands the summary to every sink with the interval
// (sink.Snapshot).
func Summarize(iv *metrics.Interval, elapsed time.Duration) IntervalSummary {
	dt := iv.End.Sub(iv.Start).Seconds()
	s := IntervalSummary{T: Round3(elapsed.Seconds()), Dt: Round3(dt), Ops: make([]OpSummary, len(iv.Ops))}
	if l := iv.Load; l != (metrics.Load{}) {
		s.Load = &IntervalLoad{Scheduled: l.Scheduled, Dropped: l.Dropped, Late: l.Late, InFlight: l.InFlight, Active: l.Active, TargetRate: l.TargetRate,
			SchedulerLagMs: Round3(float64(l.SchedulerLag) / 1e6)}
		if dt > 0 {
			s.Load.SchedulerBusy = Round3(min(l.SchedulerBusy.Seconds()/dt, 1))
		}
	}
	if c := iv.ClientCPU; c != nil && dt > 0 {
		s.Client = &IntervalClient{CPUSeconds: Round3(c.Seconds()), Utilization: Round3(procstat.Share(*c, iv.End.Sub(iv.Start)))}
	}
	for i := range iv.Ops {
		o := &iv.Ops[i]
		q := o.Latency.ValueAtPercentilesSlice([]float64{50, 95, 99})
		s.Ops[i] = OpSummary{
			Name:          o.Name,
			Parent:        o.Parent,
			Count:         o.Count(),
			Rate:          perSecond(o.Count(), dt),
			P50:           ms(q[0]),
			P95:           ms(q[1]),
			P99:           ms(q[2]),
			Max:           maxMs(o.Latency),
			Errors:        o.ErrorCount(),
			ErrorsByClass: maps.Clone(o.Errors),
			Docs:          docsOf(o.Docs),
		}
	}
	return s
}

// InMix reports whether the operation is one of the mix's (metrics.InMix).
func (o *OpSummary) InMix() bool { return metrics.InMix(o.Parent) }

// latencyOf summarizes h, which holds microseconds.
func latencyOf(h *hdrhistogram.Histogram) Latency {
	if h.TotalCount() == 0 {
		return Latency{}
	}
	q := h.ValueAtPercentilesSlice([]float64{50, 95, 99, 99.9})
	return Latency{
		Min:    ms(h.Min()),
		Avg:    Round3(h.Mean() / 1000),
		P50:    ms(q[0]),
		P95:    ms(q[1]),
		P99:    ms(q[2]),
		P999:   ms(q[3]),
		Max:    maxMs(h),
		StdDev: Round3(h.StdDev() / 1000),
	}
}

// maxMs is h's max in ms, 0 for an empty histogram (whose Max is not 0).
func maxMs(h *hdrhistogram.Histogram) float64 {
	if h.TotalCount() == 0 {
		return 0
	}
	return ms(h.Max())
}

// ms converts whole microseconds to milliseconds. HDR queries return the
// highest value of a bucket, which for the top bucket lies above the
// histogram's limit; nothing above the limit is ever recorded (larger
// latencies are clamped to it), so neither is any figure reported.
func ms(us int64) float64 { return float64(min(us, metrics.HighestMicros)) / 1000 }

// perSecond is n per second of secs, 0 for an empty span.
func perSecond(n int64, secs float64) float64 {
	if secs <= 0 {
		return 0
	}
	return Round3(float64(n) / secs)
}

// docsOf is d for the results, nil when nothing was counted.
func docsOf(d metrics.Docs) *metrics.Docs {
	if d.IsZero() {
		return nil
	}
	return &d
}
