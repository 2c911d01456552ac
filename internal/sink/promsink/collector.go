package promsink

import (
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/mongoload/mongoload/internal/metrics"
)

// Buckets are the latency histograms' upper bounds in seconds, from 100 µs
// to a minute: fine where MongoDB operations usually are, coarse in the tail.
var Buckets = []float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60}

// boundsMicros are Buckets in microseconds, the histograms' unit.
var boundsMicros = func() []int64 {
	b := make([]int64, len(Buckets))
	for i, s := range Buckets {
		b[i] = int64(s*1e6 + 0.5)
	}
	return b
}()

// hist is one Prometheus histogram being accumulated: counts per bucket
// (not cumulative; the last is +Inf), total and sum in seconds.
type hist struct {
	buckets []uint64
	count   uint64
	sum     float64
}

func newHist() *hist { return &hist{buckets: make([]uint64, len(Buckets)+1)} }

// add adds an interval's HDR histogram (microseconds). The sum uses HDR's
// mean, exact to its resolution.
func (p *hist) add(h *hdrhistogram.Histogram) {
	n := h.TotalCount()
	if n == 0 {
		return
	}
	for _, bar := range h.Distribution() {
		if bar.Count == 0 {
			continue
		}
		i := 0
		for i < len(boundsMicros) && bar.To > boundsMicros[i] {
			i++
		}
		p.buckets[i] += uint64(bar.Count)
	}
	p.count += uint64(n)
	p.sum += h.Mean() * float64(n) / 1e6
}

// cumulative returns the buckets as Prometheus wants them: upper bound ->
// count at or below it.
func (p *hist) cumulative() map[float64]uint64 {
	m := make(map[float64]uint64, len(Buckets))
	var c uint64
	for i, b := range Buckets {
		c += p.buckets[i]
		m[b] = c
	}
	return m
}

type opState struct {
	Op
	count    uint64
	errors   map[string]uint64
	lat, svc *hist
}

// collector holds what /metrics serves, updated once per interval.
type collector struct {
	mu  sync.Mutex
	ops []*opState
	// load counters and gauges
	scheduled, dropped, late uint64
	inFlight, active         int64
	target, achieved         float64
	elapsed                  float64
	intervals                int
	info                     []string
	watchers                 map[string]*watcherState // by name; watcherOrder as they came
	watcherOrder             []string

	dOps, dErrs, dLat, dSvc, dInFlight, dActive, dSched, dDropped, dLate, dTarget, dAchieved, dElapsed, dInfo *prometheus.Desc
}

func newCollector(o Options) *collector {
	c := &collector{info: []string{o.Workload, o.Version, o.Load}}
	for _, op := range o.Ops {
		c.ops = append(c.ops, &opState{Op: op, errors: map[string]uint64{}, lat: newHist()})
	}
	d := func(name, help string, labels ...string) *prometheus.Desc {
		return prometheus.NewDesc("mongoload_"+name, help, labels, nil)
	}
	c.dOps = d("operations_total", "Operations that succeeded, by operation.", "operation", "type")
	c.dErrs = d("errors_total", "Operations that failed, by operation and error class.", "operation", "class")
	c.dLat = d("latency_seconds", "Latency of successful operations, from HDR histograms: from the send (closed loop), the ready time (closed loop with more workers than the in-flight limit), the due time (sessions) or the scheduled start (open loop).", "operation")
	c.dSvc = d("service_time_seconds", "Service time of successful operations, from the actual send (open loop and sessions).", "operation")
	c.dInFlight = d("in_flight_operations", "Operations in flight at the end of the last interval.")
	c.dActive = d("active", "Workers or sessions running (open loop: operations in flight) at the end of the last interval.")
	c.dSched = d("scheduled_operations_total", "Operations the open-loop schedule called for.")
	c.dDropped = d("dropped_operations_total", "Scheduled operations not sent because every in-flight place was taken.")
	c.dLate = d("late_operations_total", "Scheduled operations sent late; their lateness is in their latency.")
	c.dTarget = d("target_ops_per_second", "Rate the schedule aimed at in the last interval (open loop).")
	c.dAchieved = d("achieved_ops_per_second", "Operations completed (successes and errors) per second in the last interval.")
	c.dElapsed = d("measured_seconds", "Time since the measured phase began, at the last interval's end.")
	c.dInfo = d("run_info", "The run: always 1, with its workload, mongoload version and load model.", "workload", "version", "load")
	return c
}

// add accumulates one interval. The HDR work happens under the lock, which
// only a scrape contends for, once per interval.
func (c *collector) add(iv *metrics.Interval, elapsed time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var done int64
	for i := range iv.Ops {
		if i >= len(c.ops) {
			break
		}
		o, s := &iv.Ops[i], c.ops[i]
		n := o.Count()
		s.count += uint64(n)
		for class, e := range o.Errors {
			s.errors[class] += uint64(e)
		}
		if o.InMix() { // a transaction's step is a part of one operation
			done += n + o.ErrorCount()
		}
		s.lat.add(o.Latency)
		if o.Service != nil {
			if s.svc == nil {
				s.svc = newHist()
			}
			s.svc.add(o.Service)
		}
	}
	l := iv.Load
	c.scheduled += uint64(max(l.Scheduled, 0))
	c.dropped += uint64(max(l.Dropped, 0))
	c.late += uint64(max(l.Late, 0))
	c.inFlight, c.active, c.target = l.InFlight, l.Active, l.TargetRate
	if dt := iv.End.Sub(iv.Start).Seconds(); dt > 0 {
		c.achieved = float64(done) / dt
	}
	c.elapsed = elapsed.Seconds()
	c.intervals++
}

func (c *collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.dOps, c.dErrs, c.dLat, c.dSvc, c.dInFlight, c.dActive, c.dSched, c.dDropped, c.dLate, c.dTarget, c.dAchieved, c.dElapsed, c.dInfo, dWatchEvents, dWatchLag} {
		ch <- d
	}
}

func (c *collector) Collect(ch chan<- prometheus.Metric) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch <- prometheus.MustNewConstMetric(c.dInfo, prometheus.GaugeValue, 1, c.info...)
	for _, s := range c.ops {
		ch <- prometheus.MustNewConstMetric(c.dOps, prometheus.CounterValue, float64(s.count), s.Name, s.Type)
		for class, n := range s.errors {
			ch <- prometheus.MustNewConstMetric(c.dErrs, prometheus.CounterValue, float64(n), s.Name, class)
		}
		ch <- prometheus.MustNewConstHistogram(c.dLat, s.lat.count, s.lat.sum, s.lat.cumulative(), s.Name)
		if s.svc != nil {
			ch <- prometheus.MustNewConstHistogram(c.dSvc, s.svc.count, s.svc.sum, s.svc.cumulative(), s.Name)
		}
	}
	c.collectWatchers(ch)
	if c.intervals == 0 {
		return // before the first interval, gauges would claim a measurement
	}
	ch <- prometheus.MustNewConstMetric(c.dInFlight, prometheus.GaugeValue, float64(c.inFlight))
	ch <- prometheus.MustNewConstMetric(c.dActive, prometheus.GaugeValue, float64(c.active))
	ch <- prometheus.MustNewConstMetric(c.dAchieved, prometheus.GaugeValue, c.achieved)
	ch <- prometheus.MustNewConstMetric(c.dElapsed, prometheus.GaugeValue, c.elapsed)
	if c.target > 0 || c.scheduled > 0 {
		ch <- prometheus.MustNewConstMetric(c.dTarget, prometheus.GaugeValue, c.target)
		ch <- prometheus.MustNewConstMetric(c.dSched, prometheus.CounterValue, float64(c.scheduled))
		ch <- prometheus.MustNewConstMetric(c.dDropped, prometheus.CounterValue, float64(c.dropped))
		ch <- prometheus.MustNewConstMetric(c.dLate, prometheus.CounterValue, float64(c.late))
	}
}
