package dashboard

import (
	"time"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
)

// Run describes a measured run that begins: a run, a sweep's step or a
// battery's run.
type Run struct {
	Load       results.LoadModel
	ConfigLine string
	Ops        []OpView
	Warmup     time.Duration
	Interval   time.Duration
}

// StartRun begins a measured run and returns its step: the run's
// dashboard sink (sink.Dashboard) feeds it to the page with RunInterval,
// one snapshot per interval, and EndRun.
func (s *Server) StartRun(r Run) int {
	s.mu.Lock()
	s.info.Step++
	s.info.State = "running"
	rv := &RunView{Step: s.info.Step, Load: r.Load, ConfigLine: r.ConfigLine, Ops: r.Ops, Warmup: r.Warmup.Seconds(),
		At: time.Now().UnixMilli(), Interval: r.Interval.Seconds()}
	if rv.Ops == nil {
		rv.Ops = []OpView{}
	}
	s.info.Run = rv
	step := s.info.Step
	s.mu.Unlock()
	s.hub.publish("run", rv)
	return step
}

// RunInterval publishes one interval of step's run and its summary;
// nominal is the run's interval, in seconds (a shorter last one is partial).
func (s *Server) RunInterval(step int, nominal float64, iv *metrics.Interval, sum results.IntervalSummary) {
	s.hub.publish("interval", snapshot(step, iv, sum, nominal))
}

// EndRun publishes the run's result and keeps it, with its interval
// series, for the downloads. res is shared with the run's other sinks: it
// is read, never changed.
func (s *Server) EndRun(step int, res *results.Result) {
	if res == nil {
		return
	}
	s.mu.Lock()
	s.result = res
	s.mu.Unlock()
	s.hub.publish("result", ResultEvent{Step: step, Result: lean(res)})
	s.stepDone(step, res)
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
