package dashboard

import (
	"time"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/sink"
)

// Phase describes a measured phase that begins: a run, a sweep step or a
// battery run.
type Phase struct {
	Load       results.LoadModel
	ConfigLine string
	Ops        []OpView
	Warmup     time.Duration
	Interval   time.Duration
}

// Sink begins a measured phase and returns the sink.Sink that feeds it
// to the page: one snapshot per interval, the result at Close. Put it
// behind the run's sink.Fanout.
func (s *Server) Sink(p Phase) sink.Sink {
	s.mu.Lock()
	s.info.Step++
	s.info.State = "running"
	rv := &RunView{Step: s.info.Step, Load: p.Load, ConfigLine: p.ConfigLine, Ops: p.Ops, Warmup: p.Warmup.Seconds(),
		At: time.Now().UnixMilli(), Interval: p.Interval.Seconds()}
	if rv.Ops == nil {
		rv.Ops = []OpView{}
	}
	s.info.Run = rv
	step := s.info.Step
	s.mu.Unlock()
	s.hub.publish("run", rv)
	return &phaseSink{s: s, step: step, series: []results.IntervalSummary{}, nominal: p.Interval.Seconds()}
}

// phaseSink is one phase's sink.Sink; the Fanout calls it from one goroutine.
type phaseSink struct {
	s       *Server
	step    int
	series  []results.IntervalSummary
	nominal float64 // the phase's interval, in seconds
}

func (k *phaseSink) Name() string { return "dashboard" }

func (k *phaseSink) Interval(iv *metrics.Interval, elapsed time.Duration) {
	sum := results.Summarize(iv, elapsed)
	k.series = append(k.series, sum)
	k.s.hub.publish("interval", snapshot(k.step, iv, sum, k.nominal))
}

// Close publishes the phase's result and keeps it, with the interval
// series the sink received, for the downloads.
func (k *phaseSink) Close(res *results.Result) error {
	if res == nil {
		return nil
	}
	full := *res
	full.Intervals = k.series
	k.s.mu.Lock()
	k.s.result = &full
	k.s.mu.Unlock()
	k.s.hub.publish("result", ResultEvent{Step: k.step, Result: lean(res)})
	k.s.stepDone(k.step, res)
	return nil
}

// stepDone reports a sweep's step when its phase ends.
func (s *Server) stepDone(step int, res *results.Result) {
	s.mu.Lock()
	sw := s.info.Sweep
	s.mu.Unlock()
	if sw == nil || step < 1 || step > len(sw.Levels) {
		return
	}
	e := StepEvent{Index: step, Level: sw.Levels[step-1], Complete: res.Outcome == results.Completed,
		Throughput: res.Totals.Throughput, P99: res.Totals.Latency.P99, Errors: res.Totals.Errors}
	if res.Client != nil {
		e.ClientCPU = res.Client.Utilization
	}
	s.Step(e)
}
