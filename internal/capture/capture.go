// Package capture turns what a deployment recorded (its profiler, its
// slow-query log, $queryStats, an export of profiler documents) and a
// sample of its collections into a workload file in mongoload's own
// language: one operation per query shape, weighted by its share, with
// generators for the values each shape was seen with.
package capture

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/capture/source"
	"github.com/mongoload/mongoload/internal/mongodb"
)

// Options of one capture.
type Options struct {
	Databases      []string
	Duration       time.Duration // profiler: also tail what arrives for this long
	Profiler       bool          // read the profiler (the default with a server and no other source)
	EnableProfiler bool
	SlowMS         int64 // with EnableProfiler: level 1 at this slowms; <0: level 2
	Logs           []string
	Exports        []string
	QueryStats     bool
	Sample         int     // documents sampled per collection
	MinShare       float64 // shapes under this share fold into the remainder
	KeepValues     bool
	RedactNames    bool
	Scale          float64 // seed counts: this fraction of the source's
	Rate           float64 // the user's rate, when the capture cannot know it
	Seed           uint64  // of the value reservoirs: the same capture gives the same file
	Now            func() time.Time
	Progress       func(string) // one-line notices while capturing
	// MaxImpact bounds the profiler's measured cost on the source, in
	// percent (source/guard.go); 0: measured and reported only.
	MaxImpact float64
	// SampleRate is the profiler's sampleRate for the window (0: 1).
	SampleRate float64
	// TracePath: Capture writes every operation read, with its values, to
	// a trace there (capture --trace, internal/trace).
	TracePath string
	// Trace, if set, receives every operation read (getMores included),
	// with its Raw entry, as it is read (the trace's writer).
	Trace func(*source.Op)
	// StateDir holds the markers of profilers this capture changed
	// (marker.go), under Deployment's name; "" keeps none.
	StateDir   string
	Deployment string
	// Urgent, when set, registers what must run even if the user will not
	// wait for the capture to end (a second Ctrl-C): the profiler's
	// restore. It returns the function that unregisters it.
	Urgent func(fn func()) (remove func())
}

// Result is a capture: what the sources recorded, grouped by shape, and
// the collections they touched.
type Result struct {
	Sources     []*source.Source
	Shapes      *Shapes
	Collections []*Collection
	Opts        Options
	// ServerLost: the server stopped answering during the capture; what
	// was read before is kept.
	ServerLost bool
	// Unresponsive: after Ctrl-C the server did not answer (the profiler
	// could not be restored): the collections are not sampled, so that
	// capture ends now rather than wait for it.
	Unresponsive bool
	// CapturedFrom identifies the source deployment (mongodb.Deployment);
	// nil when no server was read.
	CapturedFrom []string
	// Protected, when set, says why the window was ended early: the
	// profiler's cost on the source passed Options.MaxImpact.
	Protected string
	// TraceLine says where the trace went (Options.TracePath).
	TraceLine string
	// weighed: the sources' counts were put in one unit (weight.go).
	weighed    bool
	weightNote string
}

// Run captures from the sources the options name. srv may be nil (logs
// and exports only; no collections are sampled then).
func Run(ctx context.Context, srv source.Server, o Options) (*Result, error) {
	if o.Sample <= 0 {
		o.Sample = 1000
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Progress == nil {
		o.Progress = func(string) {}
	}
	res := &Result{Opts: o, Shapes: NewShapes(o.Seed + 1)}
	emit := res.Shapes.Add
	if o.Trace != nil {
		emit = func(op source.Op) bool { o.Trace(&op); return res.Shapes.Add(op) }
	}
	for _, path := range o.Exports {
		src, err := source.ReadExport(path, o.Databases, emit)
		if err != nil {
			return nil, err
		}
		res.Sources = append(res.Sources, src)
	}
	if len(o.Logs) > 0 {
		src, err := source.ReadLogsShowing(o.Logs, o.Databases, emit, o.Progress)
		if err != nil {
			return nil, err
		}
		res.Sources = append(res.Sources, src)
	}
	if srv != nil && o.QueryStats {
		src, err := source.QueryStats(ctx, srv, o.sources(), emit)
		if err != nil {
			return nil, err
		}
		res.Sources = append(res.Sources, src)
	}
	if srv != nil && (o.Profiler || len(res.Sources) == 0 && !o.QueryStats) {
		src, lost, err := source.Profile(ctx, srv, o.sources(), emit, &res.Unresponsive)
		if err != nil {
			return nil, err
		}
		res.Sources = append(res.Sources, src)
		res.ServerLost, res.Protected = lost, src.Protected
	}
	if res.Shapes.Total() == 0 {
		return res, res.emptyError()
	}
	if srv != nil {
		// Sampling runs after an interrupt too, briefly: what was captured
		// is kept, and the user who pressed Ctrl-C is not kept waiting.
		budget := 2 * time.Minute
		if ctx.Err() != nil {
			budget = 5 * time.Second
		}
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), budget)
		defer cancel()
		res.sampleCollections(sctx, srv)
	}
	return res, nil
}

// emptyError explains a capture with no operation, and how to get some.
func (r *Result) emptyError() error {
	var parts []string
	for _, s := range r.Sources {
		parts = append(parts, fmt.Sprintf("%s: %d entries read, %s", s.Name, s.Tally.Read, s.Tally.LeftOut()))
		parts = append(parts, s.Tally.Lost...)
	}
	msg := "no operation to capture (" + strings.Join(parts, "; ") + ")"
	for _, s := range r.Sources {
		if strings.HasPrefix(s.Name, "profiler") && s.Tally.Read == 0 {
			msg += ". The profiler recorded nothing: turn it on for the window with --enable-profiler (add --slowms 0 to keep every operation), or run db.setProfilingLevel(2) in mongosh while the application runs"
		}
	}
	return errors.New(msg)
}

// sampleCollections reads the count, size, a sample and the indexes of
// every collection a shape touched.
func (r *Result) sampleCollections(ctx context.Context, srv source.Server) {
	seen := map[string]bool{}
	rnd := rand.New(rand.NewPCG(r.Opts.Seed, 0xc011))
	for _, sh := range r.Shapes.Order {
		ns := sh.DB + "." + sh.Coll
		if seen[ns] {
			continue
		}
		seen[ns] = true
		c := NewCollection(sh.DB, sh.Coll)
		r.Collections = append(r.Collections, c)
		if r.ServerLost {
			c.Notes = append(c.Notes, "not sampled: the server went away during the capture; write the template's fields, or capture again")
			continue
		}
		if r.Unresponsive {
			c.Notes = append(c.Notes, "not sampled: the server did not answer after Ctrl-C; write the template's fields, or capture again")
			continue
		}
		if st, err := srv.Command(ctx, sh.DB, bson.D{{Key: "collStats", Value: sh.Coll}}); err == nil {
			c.Count, c.Size = int64(mongodb.Number(st.Lookup("count"))), int64(mongodb.Number(st.Lookup("size")))
		} else {
			c.Notes = append(c.Notes, "collStats: "+source.FirstLine(err))
		}
		if err := srv.SampleEach(ctx, sh.DB, sh.Coll, r.Opts.Sample, func(d bson.Raw) error { c.AddSample(d, rnd); return nil }); err != nil {
			c.Notes = append(c.Notes, "$sample: "+source.FirstLine(err))
			if mongodb.IsConnectionLoss(err) || mongodb.IsUnavailable(err) {
				r.ServerLost = true // no use waiting for it on every collection
				continue
			}
		}
		c.readTimeseries(ctx, srv)
		ix, err := srv.Indexes(ctx, sh.DB, sh.Coll)
		if err != nil {
			c.Notes = append(c.Notes, "listIndexes: "+source.FirstLine(err))
		}
		c.Indexes = ix
	}
}

// sources are the options the sources read.
func (o Options) sources() source.Options {
	return source.Options{Databases: o.Databases, Duration: o.Duration, EnableProfiler: o.EnableProfiler, SlowMS: o.SlowMS,
		Now: o.Now, Progress: o.Progress, StateDir: o.StateDir, Deployment: o.Deployment, Urgent: o.Urgent,
		MaxImpact: o.MaxImpact, SampleRate: o.SampleRate}
}
