package run

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/dashboard"
	"github.com/mongoload/mongoload/internal/engine"
	"github.com/mongoload/mongoload/internal/insights"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/serverinfo"
	"github.com/mongoload/mongoload/internal/sink"
	"github.com/mongoload/mongoload/internal/workload"
)

// defaultExplainSlow is the threshold --explain uses when --slow is not
// given. It is the number of mongod's default slowms, but compared with
// the client-side latency mongoload measures (sending to reply: network,
// pool wait and queueing included), not with the server's execution time.
const defaultExplainSlow = 100 * time.Millisecond

// explainBudget bounds all the explains of one phase together.
const explainBudget = 2 * time.Minute

// operator is the operator's view of one measured phase: the server's
// context and the collections' statistics before it, slow operations by
// shape during it and their plans after it, the client's CPU per interval,
// and the dashboard's feed.
type operator struct {
	log  io.Writer
	cfg  *config.Config
	plan *workload.Plan
	dash *dashboard.Server // nil-safe
	// onContext is told the server's context once it is read (Options.OnContext).
	onContext func(*results.ServerContext)
	// client is the run's; inspect the connection of the commands before
	// and after the phase, closed while it runs (its driver's heartbeats
	// would count in the server's counters); nil without a server.
	client  *mongodb.Client
	inspect *mongodb.Client
	context *results.ServerContext
	before  map[string]*results.CollStats
	notes   []string
	slow    *insights.Recorder
	// interrupted is whether the run was interrupted when the result was
	// collected: explain is skipped then.
	interrupted bool
}

// newOperator makes the operator's view of one measured phase; start
// reads what it reads before the phase.
func newOperator(log io.Writer, cfg *config.Config, plan *workload.Plan, client *mongodb.Client, dash *dashboard.Server, onContext func(*results.ServerContext)) *operator {
	op := &operator{log: log, cfg: cfg, plan: plan, dash: dash, onContext: onContext, client: client, before: map[string]*results.CollStats{}}
	if threshold := slowThreshold(cfg); threshold > 0 {
		op.slow = insights.NewRecorder(insights.Options{Threshold: threshold})
	}
	return op
}

// start reads the server's context and the collections' statistics on a
// connection of its own, and returns the sinks that feed the dashboard. It
// never fails: what cannot be read is noted.
func (op *operator) start(ctx context.Context, info results.RunInfo) []sink.Sink {
	cfg, plan := op.cfg, op.plan
	if op.client != nil {
		insp, err := op.client.Inspector(ctx)
		if err != nil {
			fmt.Fprintf(op.log, "warning: no server context: %v\n", err)
			op.notes = append(op.notes, "the server's context and the collections' statistics were not read: "+err.Error())
		} else {
			op.inspect = insp
			op.context = serverinfo.Gather(ctx, insp, time.Now())
			op.collStats(ctx, func(ns string, st *results.CollStats) { op.before[ns] = st })
			serverinfo.Refill(op.context)
			if op.onContext != nil {
				op.onContext(op.context)
			}
			op.disconnect() // reconnected after the phase
		}
	}
	var sinks []sink.Sink
	if d := op.dash; d != nil {
		d.SetContext(op.context)
		ops := make([]dashboard.OpView, 0, len(plan.Ops))
		for _, p := range plan.AllOps() {
			ov := dashboard.OpView{Name: p.Name, Type: p.Type}
			if p.Parent != nil {
				ov.Parent = p.Parent.Name
			}
			ops = append(ops, ov)
		}
		sinks = append(sinks, sink.Dashboard(d, dashboard.Run{Load: info.Load, ConfigLine: info.ConfigLine, Ops: ops, Warmup: cfg.Run.Warmup.D(), Interval: cfg.Run.Interval.D()}))
	}
	return sinks
}

// slowThreshold is --slow, or with --explain alone defaultExplainSlow
// (client-side latency).
func slowThreshold(cfg *config.Config) time.Duration {
	if d := cfg.Run.Slow.D(); d > 0 {
		return d
	}
	if cfg.Run.Explain > 0 {
		return defaultExplainSlow
	}
	return 0
}

// collStats reads every workload collection's statistics; the block
// compressor a collection was created with stands in for the server's
// setting when getCmdLineOpts did not say.
func (op *operator) collStats(ctx context.Context, keep func(ns string, st *results.CollStats)) {
	for _, col := range op.plan.Collections {
		st, compressor, err := serverinfo.CollStats(ctx, op.inspect, col.Namespace(), time.Now())
		if err != nil {
			op.notes = append(op.notes, fmt.Sprintf("%s: no collection statistics: %v", col.Namespace(), err))
			continue
		}
		keep(col.Namespace(), st)
		if op.context != nil && op.context.BlockCompressor == "" && compressor != "" {
			op.context.BlockCompressor = compressor
		}
	}
}

// onSample passes the telemetry's samples to the dashboard.
func (op *operator) onSample(s results.ServerSample) {
	op.dash.Server(s) // nil-safe
}

// engine hooks the slow-operation recorder into the engine's options.
func (op *operator) engine(opts *engine.Options) {
	if op.slow != nil {
		opts.OnSlow, opts.SlowThreshold = op.slow.Observe, op.slow.Threshold()
	}
}

// collect adds the context and the slow shapes to
// the result, and reconnects for explain and the collections' statistics.
// Call it after the telemetry's final sample, so its commands are not
// counted as the workload's.
//
// ctx bounds every step (see postRunContext); interrupted (whether the run
// was, by then) makes explainAll skip explain.
func (op *operator) collect(ctx context.Context, interrupted bool, res *results.Result) {
	op.interrupted = interrupted
	if res == nil {
		return
	}
	res.Context = op.context
	switch {
	case op.context == nil || op.inspect != nil:
	case res.Outcome == results.ServerLost:
		op.notes = append(op.notes, "no explain and no collection statistics after the run: the server went away")
	case ctx.Err() != nil:
		// The steps after the phase ran out of their bound: connecting
		// now would only wait on a server that does not answer.
		op.notes = append(op.notes, fmt.Sprintf("no explain and no collection statistics after the run: the server did not answer within %s of the phase's end", postRunBudget))
	default:
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		insp, err := op.client.Inspector(cctx)
		cancel()
		if err != nil {
			op.notes = append(op.notes, "no explain and no collection statistics after the run: "+err.Error())
		} else {
			op.inspect = insp
		}
	}
	if op.slow != nil {
		op.slow.Close()
		res.Slow = op.slow.Result()
	}
}

// explainAll explains the slow shapes and adds the collections'
// statistics after the run and the operator's notes to the result, before
// it is written.
func (op *operator) explainAll(ctx context.Context, res *results.Result) {
	if res == nil {
		return
	}
	if op.slow != nil {
		op.explain(ctx, op.interrupted, res)
		res.Notes = append(res.Notes, slowNotes(res.Slow)...)
	}
	if op.inspect != nil {
		after := map[string]*results.CollStats{}
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		op.collStats(cctx, func(ns string, st *results.CollStats) { after[ns] = st })
		cancel()
		for _, col := range op.plan.Collections {
			ns := col.Namespace()
			cs := results.CollectionStats{Namespace: ns, Before: op.before[ns], After: after[ns]}
			if cs.Before == nil && cs.After == nil {
				cs.Unavailable = "collStats gave nothing"
			}
			res.Collections = append(res.Collections, cs)
		}
		exact := map[string]int64{}
		if res.Server != nil && res.Server.Restarts > 0 {
			// The restarted server's statistics may miscount: count.
			cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			for _, col := range op.plan.Collections {
				if n, err := op.inspect.CountExact(cctx, col.Database, col.Name); err == nil {
					exact[col.Namespace()] = n
				}
			}
			cancel()
		}
		op.notes = append(op.notes, lostWrites(op.plan, res, exact)...)
	}
	res.Notes = append(res.Notes, op.notes...)
}

// explain runs explain of the --explain slowest shapes and sets each
// shape's plan.
func (op *operator) explain(ctx context.Context, interrupted bool, res *results.Result) {
	n := op.cfg.Run.Explain
	if n <= 0 {
		return
	}
	samples := op.slow.Samples(n)
	switch {
	case len(samples) == 0:
		res.Notes = append(res.Notes, fmt.Sprintf("--explain: no operation reached %s with a filter to explain", results.Rounded(op.slow.Threshold())))
		return
	case op.inspect == nil:
		res.Notes = append(res.Notes, "--explain: no connection to explain on")
		return
	case interrupted || ctx.Err() != nil:
		res.Notes = append(res.Notes, "--explain: skipped, the run was interrupted")
		return
	}
	fmt.Fprintf(op.log, "explaining the %d slowest shape(s)...\n", len(samples))
	ectx, cancel := context.WithTimeout(ctx, explainBudget)
	defer cancel()
	plans := insights.Explain(ectx, op.inspect, samples)
	for i, s := range samples {
		for j := range res.Slow.Shapes {
			sh := &res.Slow.Shapes[j]
			if sh.Namespace == s.Namespace && sh.Shape == s.Shape && sh.Type == s.Type {
				e := plans[i]
				sh.Explain = &e
			}
		}
	}
}

// slowNotes flags the shapes whose plan scans the whole collection.
func slowNotes(s *results.Slow) []string {
	var notes []string
	for _, sh := range s.Shapes {
		if e := sh.Explain; e != nil && e.CollScan {
			what := fmt.Sprintf("examined %d documents and returned none", e.DocsExamined)
			if e.DocsPerReturned != nil {
				what = fmt.Sprintf("examined %s documents per document returned", strconv.FormatFloat(*e.DocsPerReturned, 'f', -1, 64))
			}
			notes = append(notes, fmt.Sprintf("%s %s %s scans the whole collection (COLLSCAN, %s): an index on its filter's fields would serve it", sh.Namespace, sh.Type, sh.Shape, what))
		}
	}
	if s.Dropped > 0 {
		notes = append(notes, fmt.Sprintf("%d slow operations came too fast to be shaped and are counted only in the slow total", s.Dropped))
	}
	return notes
}

// close closes the inspection connection and the slow recorder.
func (op *operator) close() {
	if op.slow != nil {
		op.slow.Close()
	}
	op.disconnect()
}

func (op *operator) disconnect() {
	if op.inspect != nil {
		go op.inspect.Close() // nothing need wait for the goodbye
		op.inspect = nil
	}
}
