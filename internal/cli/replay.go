package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/engine"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/replay"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/run"
)

const replayArgs = "TRACE --uri URI [--speed 2 | --speed max] [--loop N] [--allow-existing] [--out results.json]"

// replaySettings are the settings replay takes: the connection, the
// ownership rule, the open loop's cap and the run's outputs.
var replaySettings = []string{"uri", "username", "auth-source", "app-name", "max-pool-size", "compressors", "connect-timeout",
	"server-selection-timeout", "op-timeout", "write-concern", "allow-existing", "write-to-source", "max-in-flight", "interval",
	"grace", "out", "label", "quiet", "hdr-log", "server-telemetry", "server-stats"}

// speedRange is --speed's: a factor of the captured pace.
var speedRange = config.Range{Min: 0, AboveMin: true, Max: config.MaxFactor, What: "a factor of the captured pace (2: twice as fast), or max"}

// lateAfter is how late a send may be before it counts as late (the open
// loop's default).
const lateAfter = 10 * time.Millisecond

// replayCommand replays a captured trace (capture --trace) against a
// target, on run's pipeline with the trace as its schedule
// (docs/replay.md).
func replayCommand(ctx context.Context, args []string, o IO) error {
	fs := newFlags("replay", replayArgs, o)
	addSettingsOf(fs, replaySettings)
	speedText := fs.String("speed", "1", "replay at this factor of the captured pace (2: twice as fast, in half the time), or max: as fast as the in-flight places allow")
	loops := fs.Float64("loop", 1, "replay the trace this many times, one pass after the other")
	if err := parse(fs, args, 1); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return withCode(ExitUsage, errors.New("replay needs the trace: mongoload replay TRACE --uri URI (write one with capture --trace FILE --keep-values)"))
	}
	var es config.Errors
	speed := 0.0
	if *speedText != "max" {
		v, err := config.ParseNumber(config.FlagSource("speed"), *speedText, speedRange)
		es.Add(err)
		speed = v
	}
	es.Add(config.CheckNumber(config.FlagSource("loop"), *loops, flagRanges["loop"]))
	if err := es.Err(); err != nil {
		return err
	}
	cfg := config.Default()
	if err := config.ApplyEnv(cfg, o.Getenv); err != nil {
		return err
	}
	if err := applyFlags(cfg, fs); err != nil {
		return err
	}
	if err := mongodb.CheckURI(cfg.Connection.URI); err != nil {
		return err
	}
	t, err := replay.Scan(fs.Arg(0))
	if err != nil {
		return withCode(ExitUnreadable, fmt.Errorf("replay: %w", err))
	}
	rr := replay.Run{Speed: speed, Loops: int(*loops), LateAfter: lateAfter, PoolSize: cfg.Connection.PoolSize(),
		MaxInFlight: cmp.Or(cfg.Run.MaxInFlight, engine.DefaultMaxInFlight)}
	if speed == 0 && cfg.Run.MaxInFlight == 0 {
		// As fast as it goes: as many in flight as there are connections,
		// so that none waits inside the driver for one (its latency would
		// be the pool's queue, not the server's answer).
		rr.MaxInFlight = rr.PoolSize
	}
	replayConfig(cfg, t, rr)
	fmt.Fprintln(o.Stderr, replayLine(t, rr))
	if err := checkNamespaces(ctx, o, cfg, t); err != nil {
		return err
	}
	return replayRun(ctx, o, cfg, t, rr)
}

// replayConfig makes the run's configuration: an open loop at the trace's
// mean rate (the schedule itself is the feed's), no duration (the run
// ends with the trace), the trace's source for the source-identity check.
func replayConfig(cfg *config.Config, t *replay.Trace, rr replay.Run) {
	cfg.Name, cfg.Source = "replay", t.Path
	rate := float64(t.Sent)
	if s := t.Span().Seconds(); s > 0 {
		rate /= s
	}
	cfg.Run.Rate = math.Round(rate*max(rr.Speed, 1)*1000) / 1000
	cfg.Run.Duration, cfg.Run.Operations, cfg.Run.Warmup = 0, 0, 0
	if t.Trailer != nil {
		cfg.CapturedFrom = t.Trailer.CapturedFrom
	}
	// Connections open before the first send: a cold pool opens them two
	// at a time while the schedule runs, and the first burst would wait
	// for connections the application had long open.
	if cfg.Connection.MinPoolSize == 0 {
		cfg.Connection.MinPoolSize = uint64(min(cfg.Connection.PoolSize(), max(8, 2*t.Peak)))
	}
}

// replayLine says what will be replayed, before anything is sent.
func replayLine(t *replay.Trace, rr replay.Run) string {
	s := fmt.Sprintf("replay: %s: %d operations over %s captured, %d shapes, %d collection(s), at speed %s", t.Path, t.Sent,
		t.Span().Round(time.Millisecond), len(t.Shapes), len(t.Namespaces), rr.SpeedText())
	if rr.Loops > 1 {
		s += fmt.Sprintf(", %d times", rr.Loops)
	}
	if t.Lanes {
		s += "; each captured connection keeps its order"
	}
	if ok, cov := t.Coverage(); !ok {
		s += "\nreplay: the trace is a sample, not every operation: " + cov
	}
	if d := t.Damage.String(); d != "" {
		s += "\nreplay: the trace did not read whole: " + d + "; what read is replayed"
	}
	return s
}

// checkNamespaces names, before the first send, each collection of the
// trace that the target does not have.
func checkNamespaces(ctx context.Context, o IO, cfg *config.Config, t *replay.Trace) error {
	cl, err := connect(ctx, o, cfg)
	if err != nil {
		return err
	}
	defer cl.Close()
	for _, ns := range t.Namespaces {
		db, coll, _ := strings.Cut(ns.NS, ".")
		reply, err := cl.Command(ctx, db, bson.D{{Key: "listCollections", Value: 1}, {Key: "filter", Value: bson.D{{Key: "name", Value: coll}}}, {Key: "nameOnly", Value: true}})
		if err != nil {
			return withCode(ExitServerFailure, fmt.Errorf("list the collections of %s: %w", db, err))
		}
		if first, _ := reply.Lookup("cursor", "firstBatch").ArrayOK(); len(first) > 5 {
			continue
		}
		what := fmt.Sprintf("replay: %s is not on the target: its %d read(s) will find nothing", ns.NS, ns.Reads)
		if ns.Writes > 0 {
			what += fmt.Sprintf(", and setup creates it (as mongoload's) for its %d write(s)", ns.Writes)
		}
		fmt.Fprintln(o.Stderr, what+"; load the target with the source's data first to replay like for like")
	}
	return nil
}

// replayRun runs the replay on run's pipeline: the trace is the open
// loop's feed, the send lag its own recorder, the result gets the
// replay's section.
func replayRun(ctx context.Context, o IO, cfg *config.Config, t *replay.Trace, rr replay.Run) error {
	lag := replay.NewLag(cfg.Run.Interval.D())
	feed, err := t.Feed(rr.Speed, rr.Loops)
	if err != nil {
		return withCode(ExitUnreadable, fmt.Errorf("replay: %w", err))
	}
	defer feed.Close()
	feed.Lag = lag
	plan := t.Plan()
	sess, err := run.Open(ctx, cfg, plan, run.Options{Log: o.Stderr, Version: Version, Inputs: []string{t.Path},
		Engine: func(eo *engine.Options, lm *results.LoadModel) {
			eo.Feed, eo.SendLag, eo.LateAfter, eo.MaxInFlight = feed, lag.Record, rr.LateAfter, rr.MaxInFlight
			lm.MaxInFlight, lm.Concurrency = rr.MaxInFlight, rr.MaxInFlight
			eo.Duration, eo.Operations, eo.Warmup = 0, 0, 0
			lm.Arrival = "replay at speed " + rr.SpeedText()
		},
		OnResult: func(res *results.Result) { res.Replay = t.Section(res, lag, rr) },
	})
	if err != nil {
		return err
	}
	defer sess.Close()
	out := output{format: "console"}
	out.status.Types = plan.OpTypes()
	r, err := out.measure(ctx, o, sess, cfg, o.Stdout)
	if err != nil {
		return err
	}
	printReplay(o, r.Result.Replay)
	if err := feed.Err(); err != nil {
		return withCode(ExitUnreadable, fmt.Errorf("replay: the trace could not be read again after its first pass: %w", err))
	}
	return r.Err()
}

// printReplay prints the replay's own lines after run's report.
func printReplay(o IO, rp *results.Replay) {
	if rp == nil {
		return
	}
	fmt.Fprintf(o.Stdout, "\nreplay of %s at speed %s: %d operations sent per pass (of %d in the trace), captured over %.2fs", rp.Trace, rp.Speed, rp.Sent, rp.Entries, rp.CapturedSeconds)
	if rp.ScheduledSeconds > 0 {
		fmt.Fprintf(o.Stdout, ", scheduled over %.2fs", rp.ScheduledSeconds)
	}
	fmt.Fprintln(o.Stdout)
	if l := rp.SendLag; l != nil {
		fmt.Fprintf(o.Stdout, "  send lag behind the schedule: p50 %.2f ms, p90 %.2f, p99 %.2f, max %.2f; %d sent more than %.0f ms late, %d dropped\n",
			l.P50, l.P90, l.P99, l.Max, rp.Late, rp.LateAfterMs, rp.Dropped)
	}
	if !rp.Complete {
		fmt.Fprintln(o.Stdout, "  coverage: a sample of the application's operations: "+rp.Coverage)
	}
	if rp.Behind != "" {
		fmt.Fprintln(o.Stdout, "  "+rp.Behind)
	}
}
