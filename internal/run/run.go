// Package run is one run of a workload as a library: connect, set up,
// seed, warm up, measure, collect, write. Run takes a validated
// configuration and returns the result; it reads no flags, touches no
// terminal and never exits, so the command line, a sweep, a battery, a
// rate search and a test all call the same pipeline. A Session keeps one
// prepared connection for a sequence of measured runs.
package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/dashboard"
	"github.com/mongoload/mongoload/internal/engine"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/procstat"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/sink"
	"github.com/mongoload/mongoload/internal/sink/promsink"
	"github.com/mongoload/mongoload/internal/workload"
)

// Options are what a run needs besides its configuration.
type Options struct {
	// Log receives the run's progress lines (connecting, seeding, notices,
	// faults, the --server-stats line). The sampler writes from its own
	// goroutine, so Log must accept concurrent writes, as os.Stderr does.
	// nil discards them.
	Log io.Writer
	// Sinks receive every interval and the result of Run (the live line);
	// the run adds its own (interval log, Prometheus, dashboard) and closes
	// them all. Session.Run takes each run's sinks instead.
	Sinks []sink.Sink
	// Dashboard, if set, is fed each measured run: its sink, the server's
	// samples and context.
	Dashboard *dashboard.Server
	// Version is the tool's version, recorded in the result.
	Version string
	// Inputs are the files the command reads (the workload, property
	// files): Open refuses outputs that would overwrite one.
	Inputs []string
	// OnContext, if set, is told the server's context as each measured run
	// reads it.
	OnContext func(*results.ServerContext)
	// OnPhase, if set, is called as each phase begins, on the goroutine
	// that runs it (PhaseMeasure: the engine's collecting goroutine).
	OnPhase func(Phase)
	// Arrivals, if set, paces each measured run's open loop by its own
	// times instead of the configuration's rate (replay's trace).
	Arrivals Arrivals
}

func (o *Options) log() io.Writer {
	if o.Log == nil {
		return io.Discard
	}
	return o.Log
}

// Result is one measured run and how it ended.
type Result struct {
	Result  *results.Result
	Outcome engine.Outcome
	Reason  string
	// WriteErr is the results file's failure (cfg.Run.Out), SinkErr the
	// sinks' (each named): either is an output failure (Err).
	WriteErr, SinkErr error
	// WatchErr: a watcher's stream failed for good during the run (said
	// when it did, and in the notes).
	WatchErr error
}

// Err is how the run ended, as an error of its Kind: interrupted, the
// server lost, a watcher failed, an output not written; nil when it
// completed.
func (r *Result) Err() error {
	switch r.Outcome {
	case engine.Interrupted:
		return fail(Interrupted, errors.New("the run was interrupted: the results above cover what was measured until then"))
	case engine.ServerLost:
		return fail(ServerLost, fmt.Errorf("the run was cut short: %s; the results above cover what was measured until then", r.Reason))
	}
	if r.WatchErr != nil {
		return fail(ServerFailure, errors.Join(r.WatchErr, r.WriteErr, r.SinkErr))
	}
	return fail(Output, errors.Join(r.WriteErr, r.SinkErr))
}

// Session is a prepared workload: connected, set up and seeded, with this
// process's share of the keys, ready for one or more measured runs.
type Session struct {
	cfg    *config.Config
	plan   *workload.Plan
	opts   Options
	client *mongodb.Client // nil for --target noop
	// prom is the Prometheus port, bound before the server is touched and
	// held until Close; each run serves on it (nil without --prometheus).
	prom   *promsink.Held
	phases phases
	// server is the local server's process (localServer), found once.
	serverOnce sync.Once
	server     struct {
		proc  procstat.Listener
		local bool
		err   error
	}
}

// Run connects, prepares and measures one run of cfg, and closes.
func Run(ctx context.Context, cfg *config.Config, plan *workload.Plan, opts Options) (*Result, error) {
	s, err := Open(ctx, cfg, plan, opts)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return s.Run(ctx, cfg, opts.Sinks...)
}

// Open tries the run's outputs, connects, sets up and seeds the workload
// (the phases Connect, Setup and Seed), and takes this process's share of
// the keys. cfg is validated.
func Open(ctx context.Context, cfg *config.Config, plan *workload.Plan, opts Options) (*Session, error) {
	if err := checkObjectives(cfg, plan); err != nil {
		return nil, err
	}
	prom, err := checkOutputs(cfg, opts.Inputs)
	if err != nil {
		return nil, err
	}
	s := &Session{cfg: cfg, plan: plan, opts: opts, prom: prom, phases: phases{last: -1, onPhase: opts.OnPhase}}
	if err := s.prepare(ctx); err != nil {
		s.Close()
		return nil, err
	}
	p, _ := config.ParsePartition(cfg.Run.Partition) // validated already
	for _, col := range plan.Collections {
		col.Keys.Partition(int64(p.Index), int64(p.Count))
	}
	return s, nil
}

// Quiet discards the session's progress lines from now on (a command
// printing one line per step of its own).
func (s *Session) Quiet() { s.opts.Log = io.Discard }

// Close closes the session's connection.
func (s *Session) Close() {
	if s.prom != nil {
		_ = s.prom.Close()
		s.prom = nil
	}
	if s.client != nil {
		s.client.Close()
		s.client = nil
	}
}

// prepare goes through Connect, Setup and Seed. Without a server (--target
// noop) there is nothing to connect to or create, and every collection is
// taken to hold its seed count.
func (s *Session) prepare(ctx context.Context) error {
	cfg, log := s.cfg, s.opts.log()
	noop := Noop(cfg)
	s.phases.enter(PhaseConnect)
	if !noop {
		client, err := connectGuarded(ctx, log, cfg, mongodb.ConnectOptions{TrackSends: engine.TracksSends(model(cfg), s.plan)})
		if err != nil {
			return err
		}
		s.client = client
		if err := s.checkWatchers(ctx); err != nil {
			return err
		}
	}
	s.phases.enter(PhaseSetup)
	if !noop {
		notices, err := s.client.Prepare(ctx, s.plan, setupOptions(cfg))
		for _, n := range notices {
			fmt.Fprintln(log, "notice: "+n)
		}
		if err != nil {
			return SetupError(ctx, err)
		}
	}
	s.phases.enter(PhaseSeed)
	switch {
	case noop:
		for i, col := range s.plan.Collections {
			col.Keys.Reset(0, SeedTarget(cfg, i))
		}
	case Seeds(cfg):
		if err := seed(ctx, log, cfg, s.plan, s.client); err != nil {
			return err
		}
		// Hand the seeding's batches back to the system before the run:
		// they are garbage now, and the measured phase's resident memory
		// is then the run's own, not what the Go heap kept from seeding.
		debug.FreeOSMemory()
	}
	return nil
}

// Connect connects; if the server does not answer at once, a line on log
// says what it waits for.
func Connect(ctx context.Context, log io.Writer, cfg *config.Config, opts mongodb.ConnectOptions) (*mongodb.Client, error) {
	opts.OnWait = func(s string) { fmt.Fprintln(log, s) }
	client, err := mongodb.Connect(ctx, cfg.Connection, opts)
	switch {
	case err == nil:
		return client, nil
	case errors.Is(err, mongodb.ErrAuth):
		return nil, fail(Auth, err)
	case errors.Is(err, mongodb.ErrUnreachable):
		return nil, fail(Unreachable, err)
	case ctx.Err() != nil:
		return nil, fail(Interrupted, errors.New("interrupted while connecting"))
	}
	if _, ok := config.KindOf(err); ok {
		return nil, err
	}
	return nil, fail(Unreachable, err)
}

// SetupError classifies a failure of mongodb.Client.Prepare.
func SetupError(ctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		return fail(Interrupted, errors.New("interrupted during setup"))
	case errors.Is(err, mongodb.ErrNotOurs):
		return fail(Refused, err)
	case errors.Is(err, mongodb.ErrUnsupported):
		return fail(Unsupported, err)
	}
	return fail(ServerFailure, fmt.Errorf("setup: %w", err))
}

// Noop reports whether the run sends nothing (--target noop): the engine,
// generators, recorder and sinks run, every operation is answered at once.
func Noop(cfg *config.Config) bool { return cfg.Run.Target == config.TargetNoop }

// noopExecutor answers every operation at once with one document, so
// that reads are not reported as finding nothing.
type noopExecutor struct{}

func (noopExecutor) Do(context.Context, *workload.Request) (workload.Reply, error) {
	return workload.Reply{Docs: metrics.Docs{Returned: 1, Shaped: 1}}, nil
}

// executors are the run's executors: the driver's, or no-ops.
func (s *Session) executors() ([]engine.Executor, error) {
	if s.client == nil {
		out := make([]engine.Executor, len(s.plan.AllOps()))
		for i := range out {
			out[i] = noopExecutor{}
		}
		return out, nil
	}
	execs, err := s.client.Executors(s.plan)
	if err != nil {
		return nil, err
	}
	out := make([]engine.Executor, len(execs))
	for i, e := range execs {
		out[i] = e
	}
	return out, nil
}

// waitStartAt holds the run until --start-at, so N processes start together.
func waitStartAt(ctx context.Context, log io.Writer, cfg *config.Config) error {
	if cfg.Run.StartAt == "" {
		return nil
	}
	at, _ := time.Parse(time.RFC3339, cfg.Run.StartAt)
	wait := time.Until(at)
	if wait <= 0 {
		fmt.Fprintf(log, "notice: --start-at %s has passed; starting now\n", cfg.Run.StartAt)
		return nil
	}
	fmt.Fprintf(log, "waiting %s until %s to start\n", wait.Round(time.Millisecond), cfg.Run.StartAt)
	select {
	case <-time.After(wait):
		return nil
	case <-ctx.Done():
		return fail(Interrupted, errors.New("interrupted while waiting for --start-at"))
	}
}

// postRunBudget bounds the steps after a phase that ended on a fault or an
// interrupt (the final server sample, collection statistics, explain,
// saving the keys), and those still running when an interrupt comes. It is
// less than the 3 s docs/reliability.md promises from abandoning to exit:
// the report, the files and closing the client come after it, and on a
// loaded CI host they took a second (3.5 s in all with 2.5 s here).
const postRunBudget = 2 * time.Second

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

// LostAfter is how long a run waits for an unreachable server to return:
// the server-selection timeout, as the driver would wait, plus a margin.
func LostAfter(cfg *config.Config) time.Duration {
	return max(cfg.Connection.Timeouts.ServerSelection.D()+2*time.Second, 5*time.Second)
}

// Client is the session's connection (nil for --target noop), for a
// capability that works beside the measured runs (ab's verification).
func (s *Session) Client() *mongodb.Client { return s.client }

// Plan is the session's compiled workload.
func (s *Session) Plan() *workload.Plan { return s.plan }

// Answers says whether the server answers now: a hello within the time a
// run gives a silent server before it is lost (server selection plus 2 s,
// at least 5 s). It tells a server that paused and came back from one that
// is gone. --target noop always answers.
func (s *Session) Answers(ctx context.Context) error {
	if s.client == nil {
		return nil
	}
	wait := LostAfter(s.cfg)
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	for {
		_, err := s.client.Hello(ctx)
		if err == nil {
			return nil
		}
		// A pool cleared by the failures of the pause fails at once: ask
		// again until the time is up, not once.
		select {
		case <-ctx.Done():
			return fmt.Errorf("no answer to a hello within %s: %w", wait, err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}
