package replay

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/dbcommand"
	"github.com/mongoload/mongoload/internal/engine"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/recording"
	"github.com/mongoload/mongoload/internal/run"
	"github.com/mongoload/mongoload/internal/sink"
)

// Options are a replay's own settings besides the run's configuration.
type Options struct {
	Trace string  // the trace file (capture --trace)
	Speed float64 // a factor of the captured pace; 0: as fast as the in-flight places allow
	Loops int     // passes over the trace, one after the other
	// Log receives what the replay says before the first send and the
	// run's progress lines (run.Options.Log).
	Log     io.Writer
	Version string
	Sinks   []sink.Sink // the measured run's (the live line)
}

// Result is a replay that measured.
type Result struct {
	*run.Result
	// ReadErr is the trace's failure to read again after its first pass
	// (--loop): what was replayed until then is in the result.
	ReadErr error
}

// Err is how the replay ended: the trace's failure first, then the run's.
func (r *Result) Err() error {
	if r.ReadErr != nil {
		return r.ReadErr
	}
	return r.Result.Err()
}

// Run replays the trace against cfg's target on run's pipeline, the trace
// its arrival source: it scans the trace, makes the run's configuration,
// says what it will replay, names each collection the target lacks, and
// measures. cfg is the connection's and outputs' settings, validated; Run
// completes it.
func Run(ctx context.Context, cfg *config.Config, o Options) (*Result, error) {
	log := cmp.Or[io.Writer](o.Log, io.Discard)
	if err := mongodb.CheckURI(cfg.Connection.URI); err != nil {
		return nil, err
	}
	t, err := Scan(o.Trace, Policy(cfg))
	if err != nil {
		return nil, unreadable(err)
	}
	p := PaceFor(cfg, o.Speed, o.Loops)
	t.configure(cfg, p)
	fmt.Fprintln(log, t.line(p))
	if err := t.checkNamespaces(ctx, log, cfg); err != nil {
		return nil, err
	}
	feed, err := t.Feed(p, NewLag(cfg.Run.Interval.D()))
	if err != nil {
		return nil, unreadable(err)
	}
	defer feed.Close()
	sess, err := run.Open(ctx, cfg, t.Plan(), run.Options{Log: log, Version: o.Version, Inputs: []string{t.Path}, Arrivals: feed})
	if err != nil {
		return nil, err
	}
	defer sess.Close()
	r, err := sess.Run(ctx, cfg, o.Sinks...)
	if err != nil {
		return nil, err
	}
	res := &Result{Result: r}
	if err := feed.Err(); err != nil {
		res.ReadErr = unreadable(fmt.Errorf("the trace could not be read again after its first pass: %w", err))
	}
	return res, nil
}

// Policy is what a replay sends beyond data reads and writes, as cfg's
// flags ask (--replay-ddl, --replay-admin).
func Policy(cfg *config.Config) dbcommand.Policy {
	return dbcommand.Policy{DDL: cfg.Run.ReplayDDL, Admin: cfg.Run.ReplayAdmin}
}

// PaceFor is the pace of a replay of cfg at speed (0: as fast as the
// in-flight places allow), loops times over.
func PaceFor(cfg *config.Config, speed float64, loops int) Pace {
	p := Pace{Speed: speed, Loops: loops, LateAfter: engine.DefaultLateAfter, PoolSize: cfg.Connection.PoolSize(),
		MaxInFlight: cmp.Or(cfg.Run.MaxInFlight, engine.DefaultMaxInFlight)}
	if speed == 0 && cfg.Run.MaxInFlight == 0 {
		// As fast as it goes: as many in flight as there are connections,
		// so that none waits inside the driver for one (its latency would
		// be the pool's queue, not the server's answer).
		p.MaxInFlight = p.PoolSize
	}
	return p
}

// unreadable is a trace that cannot be read: the exit code of an
// unreadable input.
func unreadable(err error) error {
	return &config.Error{Kind: config.Unreadable, Msg: "replay: " + err.Error()}
}

// configure makes the run's configuration: an open loop at the trace's
// mean rate (the schedule itself is the feed's), no duration (the run
// ends with the trace), the trace's source for the source-identity check.
func (t *Trace) configure(cfg *config.Config, p Pace) {
	cfg.Name, cfg.Source = "replay", t.Path
	rate := float64(t.Sent)
	if s := t.Span().Seconds(); s > 0 {
		rate /= s
	}
	cfg.Run.Rate = math.Round(rate*max(p.Speed, 1)*1000) / 1000
	cfg.Run.Duration, cfg.Run.Operations, cfg.Run.Warmup = 0, 0, 0
	cfg.CapturedFrom = t.Source()
	// Connections open before the first send: a cold pool opens them two
	// at a time while the schedule runs, and the first burst would wait
	// for connections the application had long open.
	if cfg.Connection.MinPoolSize == 0 {
		cfg.Connection.MinPoolSize = uint64(min(cfg.Connection.PoolSize(), max(8, 2*t.Peak)))
	}
}

// Source is the identity of the deployment the trace was captured from:
// its header's, or, in a trace written before the header held it, its
// trailer's (none when such a trace was cut short).
func (t *Trace) Source() []string {
	if len(t.Header.CapturedFrom) > 0 || t.Trailer == nil {
		return t.Header.CapturedFrom
	}
	return t.Trailer.CapturedFrom
}

// line says what will be replayed, before anything is sent.
func (t *Trace) line(p Pace) string {
	s := fmt.Sprintf("replay: %s: %d operations over %s captured, %d shapes, %d collection(s), at speed %s", t.Path, t.Sent,
		t.Span().Round(time.Millisecond), len(t.Shapes), len(t.Namespaces), p.SpeedText())
	if p.Loops > 1 {
		s += fmt.Sprintf(", %d times", p.Loops)
	}
	if t.Lanes {
		s += "; each captured connection keeps its order"
	}
	if len(t.Skipped) > 0 {
		s += "\nreplay: not sent" + strings.TrimPrefix(t.skippedText(), "; not sent")
	}
	if ok, cov := t.Coverage(); !ok {
		s += "\nreplay: the trace is a sample, not every operation: " + cov
	}
	if d := t.Damage.String(); d != "" {
		s += "\nreplay: the trace did not read whole: " + d + "; what read is replayed"
	}
	if t.Header.Tool == recording.Tool {
		s += "\nreplay: a MongoDB traffic recording names no deployment: nothing can refuse to replay its writes into the one it was recorded on (replay it into a copy)"
	}
	if t.Trailer == nil && len(t.Header.CapturedFrom) == 0 {
		s += "\nreplay: the trace was cut short before its trailer, and its header names no source deployment (captured from files, or written by an earlier mongoload): nothing can refuse to replay it into the deployment it was captured from"
	}
	return s
}
