package cli

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/engine"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/procstat"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/sink"
	"github.com/mongoload/mongoload/internal/workload"
)

// runState is what the observers of one measured step share, filled in
// phase by phase: each field says from which phase on it holds.
type runState struct {
	ctx    context.Context
	o      IO
	cfg    *config.Config
	plan   *workload.Plan
	client *mongodb.Client
	out    output

	info  results.RunInfo
	opts  engine.Options // Warmup: the observers hook into the engine
	sinks []sink.Sink    // Context: the observers add theirs, fanned out after it
	fan   *sink.Fanout   // after Context: the sinks fanned out

	run      *engine.Result          // Collect on: what the engine measured
	injected []results.InjectedFault // Collect on: the fault schedule's actions
	post     context.Context         // Collect on: the steps after the phase (postRunContext)
	result   *results.Result         // Collect on, once built
	step     *stepResult             // Write on
	said     bool                    // sayFinishing said it
}

// sayFinishing says, once, that the results are being written after the
// first Ctrl-C; the second one (cmd/mongoload) exits 130 at once, without
// them. Said on the step's goroutine, at the next step after the Ctrl-C
// (each step is bounded once it came), so that it never races the report.
func (r *runState) sayFinishing() {
	if r.ctx.Err() != nil && !r.said {
		r.said = true
		fmt.Fprintln(r.o.Stderr, "finishing: writing results; Ctrl-C again to stop without them")
	}
}

// operator's phases: the context before the run, slow operations and the
// client's CPU while it runs, the result's context, slow shapes explained
// and the collections' statistics after it.
func (op *operator) phases() []Phase {
	return []Phase{PhaseContext, PhaseWarmup, PhaseMeasure, PhaseCollect, PhaseExplain}
}

func (op *operator) enter(p Phase, r *runState) error {
	switch p {
	case PhaseContext:
		r.sinks = append(r.sinks, op.start(r.ctx, r.info)...)
	case PhaseWarmup:
		op.engine(&r.opts)
	case PhaseMeasure:
		op.measure()
	case PhaseCollect:
		op.collect(r.post, r.ctx.Err() != nil, r.result)
	case PhaseExplain:
		op.explainAll(r.post, r.result)
	}
	return nil
}

// usageStage measures the client's own usage: CPU and memory from the
// start of the measured phase (its series sink samples the memory peak
// per interval, see seriesSink), the memory peak before it.
type usageStage struct {
	series    *seriesSink
	u0        procstat.Usage
	setupPeak int64
}

func (u *usageStage) phases() []Phase { return []Phase{PhaseWarmup, PhaseMeasure} }

func (u *usageStage) enter(p Phase, r *runState) error {
	switch p {
	case PhaseWarmup:
		r.info.StartedAt = time.Now()
		u.u0 = procstat.Read()
	case PhaseMeasure: // on the collecting goroutine, before measuring
		u.u0 = procstat.Read()
		u.setupPeak, _ = procstat.PeakRSS() // connecting, seeding, loading, warm-up
		u.series.peak = procstat.StartPeak()
	}
	return nil
}

func (u *usageStage) close() {}

// resultStage builds the result from what the engine and usageStage
// measured, and writes it a first time.
type resultStage struct {
	usage   *usageStage
	endPost context.CancelFunc
}

func (s *resultStage) phases() []Phase { return []Phase{PhaseCollect} }

func (s *resultStage) enter(_ Phase, r *runState) error {
	s.collect(r)
	return nil
}

// collect builds the result. Every step after the phase is bounded when
// the run ended on a fault or an interrupt: a hanging server must not hold
// the results back.
func (s *resultStage) collect(r *runState) {
	res, cfg, o := r.run, r.cfg, r.o
	if res.Abandoned > 0 {
		r.client.Unresponsive() // do not wait for its goodbye either
	}
	r.post, s.endPost = postRunContext(r.ctx, res.Outcome != engine.Completed)
	r.sayFinishing()
	info := &r.info
	info.EndedAt = time.Now()
	u := s.usage
	info.Client = clientUsage(u.u0, procstat.Read())
	info.Client.SetupPeakRSSBytes = u.setupPeak
	if u.series.peak != nil {
		info.Client.MeasuredPeakRSSBytes, info.Client.MeasuredPeakRSSExact = u.series.peak.Peak()
	}
	// Read a moment apart: the lifetime peak is never below the phases'.
	info.Client.MaxRSSBytes = max(info.Client.MaxRSSBytes, info.Client.MeasuredPeakRSSBytes, u.setupPeak)
	info.Outcome, info.Reason = results.Outcome(res.Outcome), res.Reason
	result := results.Build(*info, res.Totals, u.series.summaries)
	results.BuildFaults(result, spans(res.Gaps), res.Abandoned, r.injected)
	if cfg.Run.MonthlyCost > 0 {
		result.Cost = &results.Cost{Monthly: cfg.Run.MonthlyCost, Currency: cfg.Run.Currency}
	}
	for _, n := range r.client.Notices() { // fallbacks found while running, such as an unsupported bulkWrite
		fmt.Fprintln(o.Stderr, "notice: "+n)
		result.Notes = append(result.Notes, n)
	}
	if cfg.Run.Out != "" {
		// Written now, before the steps that need the server (its final
		// sample, context, collection statistics, explain), and again
		// after them: a second Ctrl-C or a hanging server cannot cost
		// what mongoload measured.
		_ = results.WriteJSON(cfg.Run.Out, result)
	}
	r.result = result
}

func (s *resultStage) close() {
	if s.endPost != nil {
		s.endPost()
	}
}

// faultStage runs the --fault schedule over the measured phase.
type faultStage struct{ sched *faultSchedule }

func (f *faultStage) phases() []Phase { return []Phase{PhaseWarmup, PhaseMeasure, PhaseCollect} }

func (f *faultStage) enter(p Phase, r *runState) error {
	switch p {
	case PhaseWarmup:
		f.sched = newFaultSchedule(r.ctx, r.o, r.cfg, r.client)
	case PhaseMeasure:
		f.sched.begin()
	case PhaseCollect:
		r.injected = f.sched.end()
	}
	return nil
}

func (f *faultStage) close() {}

// writeStage closes the sinks (the results file is written then), prints
// the report and saves the keys for the next run.
type writeStage struct{}

func (writeStage) phases() []Phase { return []Phase{PhaseWrite} }

func (writeStage) enter(_ Phase, r *runState) error {
	r.sayFinishing()
	result, o := r.result, r.o
	step := &stepResult{Result: result, Outcome: r.run.Outcome, Reason: r.run.Reason}
	step.writeErr = r.fan.Close(result)
	if err := r.out.final(o.Stdout, result); err != nil {
		return err
	}
	if r.out.format == "ycsb" {
		// YCSB's report has no place for notes: they go to stderr, so that
		// a run whose reads find nothing is flagged there too.
		for _, n := range result.Notes {
			fmt.Fprintln(o.Stderr, "note: "+n)
		}
	}
	if r.run.Outcome != engine.ServerLost {
		saveCtx, cancel := context.WithTimeout(r.post, 5*time.Second)
		if err := r.client.SaveKeys(saveCtx, r.plan); err != nil {
			fmt.Fprintln(o.Stderr, "notice: "+err.Error())
		}
		cancel()
	}
	r.step = step
	return nil
}

func (writeStage) close() {}

// clientUsage is the client's CPU and memory between two readings.
func clientUsage(u0, u procstat.Usage) *results.ClientUsage {
	cpu, _ := u.Since(u0)
	return &results.ClientUsage{CPUSeconds: cpu.Seconds(), Utilization: u.Utilization(u0), Cores: runtime.NumCPU(),
		AvailableCPU: math.Round(procstat.AvailableCPU()*1000) / 1000, MaxRSSBytes: u.MaxRSS}
}

// seriesSink keeps the interval series for the step's result (a sweep reads
// it from there) and passes each interval on. The engine calls it on its
// collector goroutine, once per interval, so the series is complete when
// engine.Run returns, before the result is built.
type seriesSink struct {
	next      engine.Sink
	summaries []results.IntervalSummary
	peak      *procstat.PeakSampler // the measured phase's memory
}

func (s *seriesSink) Interval(iv *metrics.Interval, elapsed time.Duration) {
	if s.peak != nil {
		s.peak.Sample()
	}
	s.summaries = append(s.summaries, results.Summarize(iv, elapsed))
	s.next.Interval(iv, elapsed)
}
