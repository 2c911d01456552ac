package run

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/procstat"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/sink"
	"github.com/mongoload/mongoload/internal/sink/promsink"
	"github.com/mongoload/mongoload/internal/telemetry"
	"github.com/mongoload/mongoload/internal/workload"
)

// serverTelemetry is the run's optional watchers: extra sinks (HDR log,
// Prometheus) and the server telemetry sampler. A measured run opens it
// with the server's context, starts it when measuring starts, and once the
// result is built takes the final sample and adds the server's series to
// it, before the operator's commands after the run.
type serverTelemetry struct {
	onSample []func(results.ServerSample)
	prom     *promsink.Held  // the session's Prometheus port, served on by this run
	ctx      context.Context // the run's, then the post-run steps' (bounded): close waits for the final sample until it is done
	opened   bool
	sampler  *telemetry.Sampler
	monitor  *mongodb.Client
	once     sync.Once
	stopped  chan struct{}
}

// open builds them from cfg. The sinks must go into the run's
// sink.Fanout, whose Close closes them (the Prometheus endpoint stops
// then). A failure to open the interval log or to listen for Prometheus is
// an error, of its Kind, before anything runs; server telemetry
// that cannot be had only warns, since the run is still worth making. With
// --server-stats, the sampler writes its line to log from its own
// goroutine: log must accept concurrent writes, as os.Stderr does.
func (t *serverTelemetry) open(ctx context.Context, log io.Writer, cfg *config.Config, plan *workload.Plan, client *mongodb.Client, version string) (sinks []sink.Sink, err error) {
	var undo []func()
	undoAll := func(err error) ([]sink.Sink, error) {
		for _, u := range undo {
			u()
		}
		return nil, err
	}
	if path := cfg.Run.HdrLog; path != "" {
		s, err := sink.CreateHlog(path)
		if err != nil {
			return undoAll(fail(Output, err))
		}
		sinks = append(sinks, s)
		undo = append(undo, func() { _ = s.Close(nil); _ = os.Remove(path) })
	}
	if cfg.Run.Prometheus != "" {
		e, err := startPrometheus(log, cfg, plan, version, t.prom)
		if err != nil {
			return undoAll(err)
		}
		sinks = append(sinks, e)
		undo = append(undo, func() { _ = e.Close(nil) })
	}
	t.sampler, t.monitor = startTelemetry(ctx, log, cfg, client, t.onSample...)
	t.ctx, t.opened, t.stopped = ctx, true, make(chan struct{})
	return sinks, nil
}

// start starts sampling; it does not wait for the server.
func (t *serverTelemetry) start() {
	if t.sampler != nil {
		t.sampler.Start()
	}
}

// stop takes the final sample and waits for it until wait is done, a few
// seconds at most; it may be called more than once.
func (t *serverTelemetry) stop(wait context.Context) {
	t.once.Do(func() {
		go func() {
			defer close(t.stopped)
			if t.sampler != nil {
				t.sampler.Stop()
				go t.monitor.Close() // the report need not wait for the goodbye
			}
		}()
	})
	select {
	case <-t.stopped:
	case <-wait.Done():
		// The final sample of a hanging server is not worth waiting
		// for; Result then says the server did not answer in time.
	}
}

// finish adds the server's series and the cross-check to the result.
func (t *serverTelemetry) finish(cfg *config.Config, plan *workload.Plan, res *results.Result) {
	if t.sampler == nil || res == nil {
		return
	}
	res.Server = t.sampler.Result(clientSide(cfg, plan, res))
	res.Notes = append(res.Notes, serverNotes(res.Server)...)
}

// close closes the telemetry connection on every path (stop is idempotent).
func (t *serverTelemetry) close() {
	if t.opened {
		t.stop(t.ctx)
	}
}

// startPrometheus listens for scrapes and says where.
// It serves on the session's held port (held), else binds its own.
func startPrometheus(log io.Writer, cfg *config.Config, plan *workload.Plan, version string, held *promsink.Held) (*promsink.Exporter, error) {
	if _, err := promsink.ListenAddr(cfg.Run.Prometheus); err != nil {
		return nil, fail(Usage, fmt.Errorf("--prometheus: %w", err))
	}
	ops := make([]promsink.Op, len(plan.Ops))
	for i, op := range plan.Ops {
		ops[i] = promsink.Op{Name: op.Name, Type: op.Type}
	}
	load := results.Closed
	switch {
	case cfg.Run.Rate > 0:
		load = results.Open
	case cfg.Run.Sessions > 0:
		load = results.Sessions
	}
	po := promsink.Options{Addr: cfg.Run.Prometheus, Ops: ops, Workload: cfg.Name, Version: version, Load: load}
	var e *promsink.Exporter
	if held != nil {
		e = promsink.Serve(held.View(), po)
	} else {
		var err error
		if e, err = promsink.Listen(po); err != nil {
			return nil, fail(Output, err)
		}
	}
	fmt.Fprintf(log, "prometheus metrics on http://%s/metrics while the run lasts\n", e.Addr())
	return e, nil
}

// startTelemetry opens the telemetry connection and makes the sampler, or
// says why there will be no server telemetry.
func startTelemetry(ctx context.Context, log io.Writer, cfg *config.Config, client *mongodb.Client, onSample ...func(results.ServerSample)) (*telemetry.Sampler, *mongodb.Client) {
	on := cfg.Run.ServerTelemetry == nil || *cfg.Run.ServerTelemetry
	if !on && !cfg.Run.ServerStats {
		return nil, nil
	}
	if client == nil {
		return nil, nil
	}
	monitor, err := client.Monitor(ctx)
	if err != nil {
		fmt.Fprintf(log, "warning: no server telemetry: %v\n", err)
		return nil, nil
	}
	opt := telemetry.Options{Interval: cfg.Run.Interval.D()}
	if port, local := loopbackPort(cfg.Connection.URI); local {
		var once sync.Once
		var owner procstat.Listener
		var ownerErr error
		opt.ProcessCPU = func(pid int64, up time.Duration) (time.Duration, time.Duration, string, error) {
			once.Do(func() { owner, ownerErr = procstat.ListenerOf(port) })
			return localServerCPU(pid, up, port, owner, ownerErr)
		}
	}
	opt.OnSample = func(s results.ServerSample) {
		// As the live line does, skip a last sample cut short: its
		// rates would be noise.
		if cfg.Run.ServerStats && !results.Partial(s.Dt, opt.Interval.Seconds()) {
			_, _ = io.WriteString(log, telemetry.Line(s))
		}
		for _, f := range onSample {
			f(s)
		}
	}
	return telemetry.NewSampler(monitor, opt), monitor
}

// localServerCPU reads the CPU of a server on this host from /proc: the
// process serverStatus names must be the one listening on the URI's port
// (owner). Anything else in front of the server (a proxy, a container's
// port mapping) would be measured in its place, so the CPU is then said to
// be unreadable instead.
func localServerCPU(pid int64, up time.Duration, port int, owner procstat.Listener, ownerErr error) (user, system time.Duration, source string, err error) {
	source = fmt.Sprintf("/proc/%d/stat", pid)
	switch {
	case ownerErr != nil:
		return 0, 0, source, fmt.Errorf("the server's process cannot be identified: %w", ownerErr)
	case owner.Pid != pid:
		return 0, 0, source, fmt.Errorf("port %d is held by process %d (%s), not by the server (pid %d in serverStatus): something stands in front of the server (a proxy, a container's port mapping), and its CPU is not the server's", port, owner.Pid, owner.Name, pid)
	}
	user, system, err = procstat.ProcessCPU(pid, up)
	return user, system, source, err
}

// clientSide is what the cross-check compares the server's counters with:
// each operation's successful and failed counts, and the most operations
// that can be in flight.
//
// Transactions leave it out (nil): their steps, commits, aborts, retries and
// bulkWrite batches map onto the server's counters in ways that depend on
// the server's version, so the server's series are reported without it.
func clientSide(cfg *config.Config, plan *workload.Plan, res *results.Result) *telemetry.ClientSide {
	if len(plan.Steps) > 0 {
		return nil
	}
	cs := &telemetry.ClientSide{InFlight: maxInFlight(cfg), Duration: time.Duration(res.DurationSeconds * float64(time.Second))}
	for i := range res.Operations {
		r := &res.Operations[i]
		if !r.InMix() {
			continue // a read-modify-write's part: counted by its operation
		}
		op := telemetry.ClientOp{Name: r.Name, Type: r.Type, Count: r.Count, Errors: r.Errors}
		for _, p := range plan.Ops {
			if p.Name == r.Name {
				op.Type, op.BatchSize = p.Type, p.BatchSize
			}
		}
		cs.Ops = append(cs.Ops, op)
	}
	for _, w := range res.Watchers {
		// Each stream holds a connection of its own and waits in getMores;
		// each resume opens its stream again with an aggregate command.
		cs.Streams += w.Streams
		if w.Resumes > 0 {
			cs.Ops = append(cs.Ops, telemetry.ClientOp{Name: "watcher " + w.Name + " (resumes)", Type: "aggregate", Count: w.Resumes})
		}
	}
	return cs
}

// maxInFlight bounds the operations in flight at once: the driver's
// connection pool (100 by default) bounds every load model; a closed loop
// without stages has at most its workers, sessions at most one each, an
// open loop at most its in-flight limit.
func maxInFlight(cfg *config.Config) int {
	n := cfg.Connection.PoolSize()
	r := cfg.Run
	switch {
	case r.Rate > 0 && r.MaxInFlight > 0:
		n = min(n, r.MaxInFlight)
	case r.Sessions > 0:
		n = min(n, r.Sessions)
	case r.Rate == 0 && len(r.Stages) == 0 && r.Concurrency > 0:
		n = min(n, r.Concurrency)
	}
	return n
}

// serverNotes turns what a reader of the report must know about the
// server's side into notes: telemetry missing, counters that disagree.
func serverNotes(s *results.Server) []string {
	switch s.Unavailable {
	case "":
	case telemetry.NeverStarted:
		return nil // the report already says nothing was measured
	default:
		return []string{"no server telemetry: " + s.Unavailable}
	}
	var notes []string
	for _, r := range telemetry.Flagged(s.CrossCheck) {
		notes = append(notes, fmt.Sprintf("the server's %s counter disagrees with mongoload's operations beyond its tolerance (server %d, expected %d + %d of mongoload's own): see the cross-check",
			r.Counter, r.Server, r.Expected, r.Own))
	}
	return notes
}
