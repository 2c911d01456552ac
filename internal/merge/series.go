package merge

import (
	"maps"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
)

// member is one source's intervals that end in one bucket.
type member struct {
	dt    float64 // seconds, the intervals' lengths added
	end   time.Time
	keyed map[string][]*ivOp // by key: each interval's figures
}

// mergeSeries aligns every source's intervals on the wall clock and adds
// those that end in the same bucket of width seconds (the longest typical
// interval among the inputs, at least one second). upper reports whether
// any percentile had to be given as an upper bound.
func mergeSeries(srcs []*Source, keys, names []string, start time.Time) (out []results.IntervalSummary, upper bool) {
	width := bucketWidth(srcs)
	buckets := map[int64]map[int]*member{}
	for si, s := range srcs {
		if s.measuredNothing() {
			continue
		}
		for _, iv := range s.ivs {
			b := int64(math.Floor(float64(iv.end.UnixNano()) / float64(width)))
			if buckets[b] == nil {
				buckets[b] = map[int]*member{}
			}
			m := buckets[b][si]
			if m == nil {
				m = &member{keyed: map[string][]*ivOp{}}
				buckets[b][si] = m
			}
			m.dt += iv.end.Sub(iv.start).Seconds()
			if iv.end.After(m.end) {
				m.end = iv.end
			}
			for k, o := range iv.ops {
				m.keyed[k] = append(m.keyed[k], o)
			}
		}
	}
	for _, b := range slices.Sorted(maps.Keys(buckets)) {
		ms := buckets[b]
		sum, up := mergeBucket(ms, keys, names, start)
		out = append(out, sum)
		upper = upper || up
	}
	return out, upper
}

// bucketWidth is the longest median interval length among the sources,
// rounded to whole seconds, at least one second.
func bucketWidth(srcs []*Source) time.Duration {
	w := time.Second
	for _, s := range srcs {
		if len(s.ivs) == 0 {
			continue
		}
		dts := make([]time.Duration, len(s.ivs))
		for i, iv := range s.ivs {
			dts[i] = iv.end.Sub(iv.start)
		}
		sort.Slice(dts, func(i, j int) bool { return dts[i] < dts[j] })
		w = max(w, dts[len(dts)/2].Round(time.Second))
	}
	return w
}

// mergeBucket adds one bucket's intervals, operation by operation.
func mergeBucket(ms map[int]*member, keys, names []string, start time.Time) (results.IntervalSummary, bool) {
	var end time.Time
	var dt float64
	for _, m := range ms {
		if m.end.After(end) {
			end = m.end
		}
		dt = max(dt, m.dt)
	}
	sum := results.IntervalSummary{T: round3(end.Sub(start).Seconds()), Dt: round3(dt), Ops: make([]results.OpSummary, len(keys))}
	upper := false
	for i, k := range keys {
		o := &sum.Ops[i]
		o.Name = names[i]
		var active []*ivOp
		for _, si := range slices.Sorted(maps.Keys(ms)) {
			m := ms[si]
			var n int64
			for _, x := range m.keyed[k] {
				n += x.sum.Count
				o.Errors += x.sum.Errors
				if d := x.sum.Docs; d != nil {
					if o.Docs == nil {
						o.Docs = &metrics.Docs{}
					}
					o.Docs.Add(*d)
				}
				for c, e := range x.sum.ErrorsByClass {
					if o.ErrorsByClass == nil {
						o.ErrorsByClass = map[string]int64{}
					}
					o.ErrorsByClass[c] += e
				}
				if x.sum.Count > 0 {
					active = append(active, x)
				}
			}
			o.Count += n
			if m.dt > 0 {
				o.Rate += float64(n) / m.dt
			}
		}
		o.Rate = round3(o.Rate)
		upper = percentiles(o, active) || upper
	}
	return sum, upper
}

// percentiles sets o's p50, p95, p99 and max from the intervals that
// recorded the operation: copied from a single one, computed from the
// added histograms when every one has its histogram, and otherwise the
// largest of their values, flagged as an upper bound. (The combined
// distribution's quantile is at most the largest of the parts' quantiles,
// because its CDF is a weighted average of theirs; HDR rounds a quantile's
// rank to the nearest sample, so the bound holds to within half a sample's
// rank per part.)
func percentiles(o *results.OpSummary, active []*ivOp) (upper bool) {
	switch {
	case len(active) == 0:
		return false
	case len(active) == 1:
		copyLatency(o, active[0].sum)
		return false
	case allHistograms(active):
		h := metrics.NewHistogram()
		for _, x := range active {
			h.Merge(x.hist)
		}
		copyLatency(o, summarize(h))
		return false
	}
	for _, x := range active {
		o.P50 = max(o.P50, x.sum.P50)
		o.P95 = max(o.P95, x.sum.P95)
		o.P99 = max(o.P99, x.sum.P99)
		o.Max = max(o.Max, x.sum.Max)
	}
	o.PercentilesUpperBound = true
	return true
}

func allHistograms(xs []*ivOp) bool {
	for _, x := range xs {
		if x.hist == nil {
			return false
		}
	}
	return true
}

func copyLatency(o *results.OpSummary, from results.OpSummary) {
	o.P50, o.P95, o.P99, o.Max = from.P50, from.P95, from.P99, from.Max
}

// summarize computes an interval summary of h exactly as a run does.
func summarize(h *hdrhistogram.Histogram) results.OpSummary {
	iv := &metrics.Interval{Ops: []metrics.OpInterval{{Latency: h}}}
	return results.Summarize(iv, 0).Ops[0]
}

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }
