package run

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/engine"
	"github.com/mongoload/mongoload/internal/mempolicy"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/procstat"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/sink"
	"github.com/mongoload/mongoload/internal/watch"
)

// Run measures one run of cfg (the session's configuration, or a sweep
// step's copy of it) on the prepared workload: the phases Context to
// Write, in the order this function reads. sinks receive its intervals
// and its result; the run closes them.
//
// An error means the run could not go through its phases (a sink that
// cannot open, an interrupt before measuring); the sinks are closed and
// the results file written with what there is, even then. A run that
// measured returns its Result, whose Err says how it ended.
func (s *Session) Run(ctx context.Context, cfg *config.Config, sinks ...sink.Sink) (*Result, error) {
	s.phases.last = PhaseSeed // each measured run goes through the phases after it
	if s.client != nil {
		s.client.ResetCommands("outside") // this run's commands beside the workload, from here
	}
	execs, err := s.executors()
	if err != nil {
		return nil, err
	}
	m := &measurement{s: s, ctx: ctx, cfg: cfg, log: s.opts.log(), info: runInfo(ctx, cfg, s.plan, s.client, s.opts.Version)}
	defer m.close()
	m.eopts, m.info.Load = engineOptions(cfg)
	if s.opts.Arrivals != nil {
		withArrivals(&m.eopts, &m.info.Load, s.opts.Arrivals)
	}
	var restore func()
	m.info.Memory, m.memFollow, restore = applyMemoryPolicy(cfg, s.plan, m.eopts)
	m.info.DriverPath = cfg.Connection.Path()
	defer restore()

	s.phases.enter(PhaseContext)
	m.op = newOperator(m.log, cfg, s.plan, s.client, s.opts.Dashboard, s.opts.OnContext)
	sinks = append(sinks, m.op.start(ctx, m.info)...)
	m.tel = &serverTelemetry{onSample: []func(results.ServerSample){m.op.onSample}, prom: s.prom}
	more, err := m.tel.open(ctx, m.log, cfg, s.plan, s.client, s.opts.Version)
	if err != nil {
		return nil, err
	}
	m.fan = sink.NewFanout(append(sinks, more...)...) // Close closes the interval log and stops the endpoint
	if err := waitStartAt(ctx, m.log, cfg); err != nil {
		return nil, err // close writes what there is
	}
	if m.watch, err = openWatchers(ctx, m.log, s.plan, s.client); err != nil {
		return nil, err // close writes what there is
	}
	fmt.Fprintf(m.log, "running %s: %s\n", cfg.Source, m.info.ConfigLine)
	if cfg.Run.Warmup > 0 {
		fmt.Fprintf(m.log, "warming up for %s (not measured)\n", cfg.Run.Warmup)
	}

	s.phases.enter(PhaseWarmup)
	m.info.StartedAt, m.u0 = time.Now(), procstat.Read()
	m.cpu.start()
	m.op.engine(&m.eopts)
	m.faults = newFaultSchedule(ctx, m.log, cfg, s.client)
	m.eopts.OnMeasure = m.measureStarts
	m.eopts.OnGrace = m.onGrace
	rec := metrics.NewRecorder(s.plan.OpNames(), metrics.Options{Service: engine.Service(m.eopts), Parents: s.plan.OpParents()})
	ran := engine.Run(ctx, s.plan, execs, rec, m.interval, m.eopts)

	s.phases.enter(PhaseCollect)
	// Every step after the measured phase is bounded when the run ended on
	// a fault or an interrupt: a hanging server must not hold the results back.
	post, endPost := postRunContext(ctx, ran.Outcome != engine.Completed)
	defer endPost()
	m.sayFinishing()
	result := m.collect(ran, m.faults.end()) // from what the engine, the client's usage and the faults measured
	if m.stopWatchers(post, result) && ctx.Err() != nil && ran.Outcome != engine.ServerLost {
		interruptedDraining(ran, result) // Ctrl-C while the watchers drained
	}
	if s.opts.Arrivals != nil {
		s.opts.Arrivals.Complete(result)
	}
	m.checkpoint(result)                         // written before the steps that need the server
	m.tel.ctx = post                             // close must not wait past the post-run bound either
	m.tel.stop(post)                             // the server's final sample
	m.tel.finish(cfg, s.plan, result)            // the server series and the cross-check
	m.op.collect(post, ctx.Err() != nil, result) // after the final sample: its commands are not the workload's

	s.phases.enter(PhaseExplain)
	m.op.explainAll(post, result)

	s.phases.enter(PhaseWrite)
	return m.write(post, ran, result), nil
}

// measurement is what one measured run holds, phase by phase.
type measurement struct {
	s         *Session
	memFollow *mempolicy.Follower // the sized limit's follower, stopped before the result is built
	ctx       context.Context
	cfg       *config.Config
	log       io.Writer
	info      results.RunInfo

	// Context on: the operator's view, the telemetry, the sinks fanned out.
	op  *operator
	tel *serverTelemetry
	fan *sink.Fanout

	// Warm-up on: the engine's options, the client's usage, the faults.
	eopts     engine.Options
	u0        procstat.Usage
	setupPeak int64
	peak      *procstat.PeakSampler // the measured phase's memory
	cpu       cpuClock
	host      hostClock // the interference: other work on the host
	faults    *faultSchedule
	watch     *watch.Set // the change-stream consumers, nil for none
	watchErr  error      // the watchers' streams that failed for good

	// Written on the engine's collecting goroutine, read once it returned.
	series []results.IntervalSummary
	totals *metrics.Totals

	said bool // sayFinishing said it
}

// measureStarts is PhaseMeasure, on the engine's collecting goroutine
// before the first measured interval: the client's CPU and memory from
// here, then the telemetry sampler, then the faults.
func (m *measurement) measureStarts() {
	m.s.phases.enter(PhaseMeasure)
	m.cpu.start()
	m.u0 = procstat.Read()
	m.host.start(m.s.localServer)
	m.setupPeak, _ = procstat.PeakRSS() // connecting, seeding, loading, warm-up
	m.peak = procstat.StartPeak()
	if m.s.client != nil {
		m.s.client.CommandPhase("measured")
	}
	m.tel.start()
	m.faults.begin()
	if m.watch != nil {
		m.watch.Measure()
	}
}

// interval takes each interval from the engine, on its collecting
// goroutine: the client's CPU is stamped on it, its summary joins the
// run's one series (the result's and the results file's), and the sinks
// get it.
func (m *measurement) interval(iv *metrics.Interval, elapsed time.Duration) {
	m.cpu.stamp(iv)
	if m.peak != nil {
		m.peak.Sample()
	}
	snap := sink.NewSnapshot(iv, elapsed) // summarised once, for the series and every sink
	if m.watch != nil {
		snap.Summary.Watchers = m.watch.Interval()
	}
	m.series = append(m.series, snap.Summary)
	m.totals = iv.RunTotals
	m.fan.Interval(snap)
}

func (m *measurement) onGrace(n int64, grace time.Duration, abandoned bool) {
	if abandoned {
		fmt.Fprintf(m.log, "duration reached: abandoning %d operation(s) still in flight after %s (--grace)\n", n, grace)
	} else {
		fmt.Fprintf(m.log, "duration reached: waiting up to %s for %d operation(s) in flight (--grace)\n", grace, n)
	}
}

// sayFinishing says, once, that the results are being written after the
// first Ctrl-C; the second one (cmd/mongoload) exits 130 at once, without
// them. Said at the next step after the Ctrl-C (each step is bounded once
// it came), so that it never races the report.
func (m *measurement) sayFinishing() {
	if m.ctx.Err() != nil && !m.said {
		m.said = true
		fmt.Fprintln(m.log, "finishing: writing results; Ctrl-C again to stop without them")
	}
}

// write closes the sinks with the result, writes the results file (once,
// from the run's one series) and saves the keys for the next run.
func (m *measurement) write(post context.Context, ran *engine.Result, result *results.Result) *Result {
	m.sayFinishing()
	r := &Result{Result: result, Outcome: ran.Outcome, Reason: ran.Reason, WatchErr: m.watchErr}
	if c := m.s.client; c != nil && result.Client != nil {
		result.Client.Telemetry = clientTelemetry(c.Commands(), result.DurationSeconds)
		if w := result.Client.Telemetry.Warning; w != "" {
			fmt.Fprintln(m.log, "warning: "+w)
			result.Notes = append(result.Notes, w)
		}
	}
	r.SinkErr = m.fan.Close(result)
	m.fan = nil
	r.WriteErr = writeResults(m.cfg.Run.Out, result)
	if c := m.s.client; c != nil && ran.Outcome != engine.ServerLost {
		saveCtx, cancel := context.WithTimeout(post, 5*time.Second)
		if err := c.SaveKeys(saveCtx, m.s.plan); err != nil {
			fmt.Fprintln(m.log, "notice: "+err.Error())
		}
		cancel()
	}
	return r
}

// checkpoint writes the results file before the steps after the measured
// phase that need the server (its final sample, context, collection
// statistics, explain): a second Ctrl-C, which exits at once, or a server
// that hangs cannot cost what was measured. write replaces it with the
// complete result, from the same series; a checkpoint that fails is said
// at once, the final write's failure is the run's.
func (m *measurement) checkpoint(result *results.Result) {
	if err := writeResults(m.cfg.Run.Out, result); err != nil {
		fmt.Fprintln(m.log, "warning: the results file could not be written before the post-run steps: "+err.Error())
	}
}

// writeResults writes the results file, if one was asked for.
func writeResults(path string, res *results.Result) error {
	if path == "" {
		return nil
	}
	return results.WriteJSON(path, res)
}

// close releases what the run holds, on every path. A run that ends before
// its result was written still closes its sinks (the interval log, the
// Prometheus endpoint) and writes the results file, with what the engine
// delivered until then.
func (m *measurement) close() {
	if m.fan != nil {
		totals := m.totals
		if totals == nil {
			totals = metrics.NewTotals(nil, false)
		}
		if m.ctx.Err() != nil {
			m.info.Outcome = results.Interrupted
		}
		res := results.Build(m.info, totals, m.series)
		res.Notes = append(res.Notes, "the run ended before its result was complete: this one holds what was measured until then")
		if err := m.fan.Close(res); err != nil {
			fmt.Fprintln(m.log, "warning: "+err.Error())
		}
		if err := writeResults(m.cfg.Run.Out, res); err != nil {
			fmt.Fprintln(m.log, "warning: "+err.Error())
		}
	}
	if m.watch != nil {
		m.watch.Close() // a run that ended early: no drain
	}
	if m.tel != nil {
		m.tel.close()
	}
	if m.op != nil {
		m.op.close()
	}
}
