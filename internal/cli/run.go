package cli

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/engine"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/sink"
	"github.com/mongoload/mongoload/internal/workload"
)

func runCommand(ctx context.Context, args []string, o IO) (err error) {
	fs := newFlags("run", "[WORKLOAD] [flags]", o)
	addSettings(fs)
	printCfg := fs.Bool("print-config", false, "print the effective configuration (password redacted) and exit")
	rf := addRunFlags(fs)
	addPlgmFlags(fs)
	if err := parse(fs, args, 1); err != nil {
		return err
	}
	cfg, plan, out, err := rf.resolve(fs.Arg(0), fs, o)
	if err != nil {
		return err
	}
	if *printCfg {
		return printConfig(o, cfg)
	}
	if err := checkOperatorFlags(cfg); err != nil {
		return err
	}
	out.ycsbHeader(o, "run", args)
	if out.view, err = startDashboard(o, cfg, "run"); err != nil {
		return err
	}
	defer func() { out.view.end(ctx, o, cfg, nil, err) }() // the final report stays up for --dashboard-linger
	if err := checkOutputs(cfg, rf.inputs(fs.Arg(0), fs)); err != nil {
		return err
	}
	startPprof(o)
	client, err := connectPrepared(ctx, o, cfg, plan, engine.TracksSends(model(cfg), plan))
	if err != nil {
		return err
	}
	defer client.Close()
	if cfg.Run.SLO != "" || cfg.Run.Repeat > 1 {
		return battery(ctx, o, cfg, plan, client, out)
	}
	return measure(ctx, o, cfg, plan, client, out)
}

// connectPrepared connects, sets up and seeds the workload, and takes this
// process's share of the keys: what every command that measures does first
// (the phases Connect, Setup and Seed, once per command; measureStep goes
// through the others once per measured step).
// trackSends asks the driver to mark sends (see engine.TracksSends).
func connectPrepared(ctx context.Context, o IO, cfg *config.Config, plan *workload.Plan, trackSends bool) (*mongodb.Client, error) {
	client, err := connect(ctx, o, cfg, mongodb.ConnectOptions{TrackSends: trackSends})
	if err != nil {
		return nil, err
	}
	if err := prepare(ctx, o, cfg, plan, client); err != nil {
		client.Close()
		return nil, err
	}
	partitionKeys(cfg, plan)
	return client, nil
}

// partitionKeys gives this process its share of every collection's keys
// (--partition i/N), once setup and seeding have set the physical counts.
func partitionKeys(cfg *config.Config, plan *workload.Plan) {
	p, _ := config.ParsePartition(cfg.Run.Partition) // validated already
	for _, col := range plan.Collections {
		col.Keys.Partition(int64(p.Index), int64(p.Count))
	}
}

// connect connects; if the server does not answer at once, a line on
// stderr says what it waits for.
func connect(ctx context.Context, o IO, cfg *config.Config, co ...mongodb.ConnectOptions) (*mongodb.Client, error) {
	opts := mongodb.ConnectOptions{}
	if len(co) > 0 {
		opts = co[0]
	}
	opts.OnWait = func(s string) { fmt.Fprintln(o.Stderr, s) }
	client, err := mongodb.Connect(ctx, cfg.Connection, opts)
	switch {
	case err == nil:
		return client, nil
	case errors.Is(err, mongodb.ErrAuth):
		return nil, withCode(ExitAuth, err)
	case errors.Is(err, mongodb.ErrUnreachable):
		return nil, withCode(ExitUnreachable, err)
	case ctx.Err() != nil:
		return nil, withCode(ExitInterrupted, fmt.Errorf("interrupted while connecting"))
	}
	if _, ok := config.KindOf(err); ok {
		return nil, err
	}
	return nil, withCode(ExitUnreachable, err)
}

// prepare creates collections and indexes (PhaseSetup) and seeds them
// (PhaseSeed), as configured.
func prepare(ctx context.Context, o IO, cfg *config.Config, plan *workload.Plan, client *mongodb.Client) error {
	create := cfg.Run.Setup == nil || *cfg.Run.Setup
	notices, err := client.Prepare(ctx, plan, mongodb.SetupOptions{
		Create: create, Drop: cfg.Run.Drop, AllowExisting: cfg.Run.AllowExisting, Workload: cfg.Name,
		Fill: seedFill(cfg),
	})
	for _, n := range notices {
		fmt.Fprintln(o.Stderr, "notice: "+n)
	}
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return withCode(ExitInterrupted, errors.New("interrupted during setup"))
	case errors.Is(err, mongodb.ErrNotOurs):
		return withCode(ExitSetup, err)
	default:
		return withCode(ExitServerFailure, fmt.Errorf("setup: %w", err))
	}
	if seeds(cfg) {
		if err := seed(ctx, o, cfg, plan, client); err != nil {
			return err
		}
		// Hand the seeding's batches back to the system before the run:
		// they are garbage now, and the measured phase's resident memory
		// (client.measuredPeakRSSBytes) is then the run's own, not what
		// the Go heap kept from seeding.
		debug.FreeOSMemory()
	}
	return nil
}

// measure runs the workload and reports, whatever way the run ends.
func measure(ctx context.Context, o IO, cfg *config.Config, plan *workload.Plan, client *mongodb.Client, out output) error {
	step, err := measureStep(ctx, o, cfg, plan, client, out)
	if err != nil {
		return err
	}
	if cfg.Run.Out != "" && step.writeErr == nil {
		fmt.Fprintf(o.Stderr, "results written to %s\n", cfg.Run.Out)
	}
	return step.exitError()
}

// stepResult is one measured run: its result and how it ended.
type stepResult struct {
	Result   *results.Result
	Outcome  engine.Outcome
	Reason   string
	writeErr error // a sink (the results file) failed
}

// exitError turns how a run ended into the command's error and exit code.
func (s *stepResult) exitError() error {
	switch s.Outcome {
	case engine.Interrupted:
		return withCode(ExitInterrupted, errors.New("the run was interrupted: the results above cover what was measured until then"))
	case engine.ServerLost:
		return withCode(ExitServerLost, fmt.Errorf("the run was cut short: %s; the results above cover what was measured until then", s.Reason))
	}
	return withCode(ExitOutput, s.writeErr)
}

// measureStep runs one measured phase (warm-up included) of an already
// prepared workload and reports it; a sweep or a battery calls it once per
// step, on one connection.
//
// The step goes through the phases Context to Write (see Phase); what
// happens in each is the observers' hooks, in the order runObservers gives.
func measureStep(ctx context.Context, o IO, cfg *config.Config, plan *workload.Plan, client *mongodb.Client, out output) (*stepResult, error) {
	execs, err := client.Executors(plan)
	if err != nil {
		return nil, err
	}
	runners := make([]engine.Executor, len(execs))
	for i, e := range execs {
		runners[i] = e
	}
	opts, load := engineOptions(cfg)
	r := &runState{ctx: ctx, o: o, cfg: cfg, plan: plan, client: client, out: out, opts: opts, info: runInfo(ctx, cfg, plan, client)}
	r.info.Load = load
	var restore func()
	r.info.Memory, restore = applyMemoryPolicy(cfg, plan, opts)
	defer restore()
	if live := out.live(o, cfg.Run.Quiet); live != nil {
		r.sinks = append(r.sinks, live)
	}
	if cfg.Run.Out != "" {
		r.sinks = append(r.sinks, resultsFileSink(cfg.Run.Out, r.info))
	}
	op, usage, pl := runObservers(o, cfg, plan, client, out.view)
	defer pl.close()
	if err := pl.enter(PhaseContext, r); err != nil {
		return nil, err // carries its exit code
	}
	r.fan = sink.NewFanout(r.sinks...) // Close closes the HDR log and stops the endpoint
	rec := metrics.NewRecorder(plan.OpNames(), metrics.Options{Service: engine.Service(r.opts), Parents: plan.OpParents()})
	if err := waitStartAt(ctx, o, cfg); err != nil {
		_ = r.fan.Close(nil)
		return nil, err
	}
	fmt.Fprintf(o.Stderr, "running %s: %s\n", cfg.Source, r.info.ConfigLine)
	if cfg.Run.Warmup > 0 {
		fmt.Fprintf(o.Stderr, "warming up for %s (not measured)\n", cfg.Run.Warmup)
	}
	if err := pl.enter(PhaseWarmup, r); err != nil {
		return nil, err
	}
	// On the collecting goroutine, before measuring.
	r.opts.OnPhase = func(string) { _ = pl.enter(PhaseMeasure, r) }
	r.opts.OnGrace = func(n int64, grace time.Duration, abandoned bool) {
		if abandoned {
			fmt.Fprintf(o.Stderr, "duration reached: abandoning %d operation(s) still in flight after %s (--grace)\n", n, grace)
		} else {
			fmt.Fprintf(o.Stderr, "duration reached: waiting up to %s for %d operation(s) in flight (--grace)\n", grace, n)
		}
	}
	// The interval series also goes into the step's result. The client CPU
	// is stamped on each interval (op.wrap) before anything summarises it.
	usage.series.next = r.fan
	r.run = engine.Run(ctx, plan, runners, rec, op.wrap(usage.series), r.opts)
	for _, p := range []Phase{PhaseCollect, PhaseExplain, PhaseWrite} {
		if err := pl.enter(p, r); err != nil {
			return nil, err
		}
	}
	return r.step, nil
}

// runObservers assembles the observers of one measured step. Their order
// is the step's order: each phase enters them in it, and the phases after
// Measure in reverse (Phase.unwinds). So, when measuring starts: the
// operator's CPU reading, the client's usage, the telemetry sampler, the
// fault schedule; once the engine returned: the fault schedule ends, the
// result is built (and written a first time), the telemetry's final
// sample goes into it, then the operator's context, slow shapes, explain
// and collections' statistics; last the results file and the report.
func runObservers(o IO, cfg *config.Config, plan *workload.Plan, client *mongodb.Client, view *operatorView) (*operator, *usageStage, *pipeline) {
	op := newOperator(o, cfg, plan, client, view)
	usage := &usageStage{series: &seriesSink{}}
	tel := &telemetryStage{onSample: []func(results.ServerSample){op.onSample}}
	return op, usage, newPipeline(writeStage{}, op, usage, tel, &resultStage{usage: usage}, &faultStage{})
}

// postRunBudget bounds the steps after a phase that ended on a fault or an
// interrupt (the final server sample, collection statistics, explain,
// saving the keys), and those still running when an interrupt comes. It is
// less than the 3 s docs/reliability.md promises from abandoning to exit:
// the report, the files and closing the client come after it.
const postRunBudget = 2500 * time.Millisecond

// postRunContext is the context of the steps after the measured phase: not
// cancelled by the interrupt that ended the phase, but bounded to
// postRunBudget if the run did not complete or once an interrupt comes.
func postRunContext(ctx context.Context, cut bool) (context.Context, context.CancelFunc) {
	post, cancel := context.WithCancel(context.WithoutCancel(ctx))
	if cut {
		t := time.AfterFunc(postRunBudget, cancel)
		return post, func() { t.Stop(); cancel() }
	}
	stop := context.AfterFunc(ctx, func() { time.AfterFunc(postRunBudget, cancel) })
	return post, func() { stop(); cancel() }
}

// spans converts the engine's availability gaps for the report.
func spans(gaps []engine.Gap) []results.Span {
	out := make([]results.Span, len(gaps))
	for i, g := range gaps {
		out[i] = results.Span{Start: g.Start, End: g.End, Open: g.Open}
	}
	return out
}

// lostAfter is how long a run waits for an unreachable server to return:
// the server-selection timeout, as the driver would wait, plus a margin.
func lostAfter(cfg *config.Config) time.Duration {
	return max(cfg.Connection.Timeouts.ServerSelection.D()+2*time.Second, 5*time.Second)
}
