package capture

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/mongodb"
)

// Server is what capture reads from a live deployment (*mongodb.Client).
type Server interface {
	Profiler(ctx context.Context, db string) (mongodb.ProfilerState, error)
	SetProfiler(ctx context.Context, db string, st mongodb.ProfilerState) error
	TailEach(ctx context.Context, until time.Time, db, coll string, filter bson.D, after func(bson.Raw) bson.D, each func(bson.Raw), lost func(error)) error
	AggregateEach(ctx context.Context, database, collection string, pipeline any, each func(bson.Raw) error) error
	SampleEach(ctx context.Context, db, coll string, n int, each func(bson.Raw) error) error
	Indexes(ctx context.Context, db, coll string) ([]bson.Raw, error)
	Command(ctx context.Context, db string, cmd bson.D) (bson.Raw, error)
	Sharded(ctx context.Context) (bool, error)
	Collections(ctx context.Context, db string) ([]string, error)
}

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
	// Trace, if set, receives every operation read (getMores included),
	// with its Raw entry, as it is read (capture --trace, internal/trace).
	Trace func(*Op)
	// StateDir holds the markers of profilers this capture changed
	// (marker.go), under Deployment's name; "" keeps none.
	StateDir   string
	Deployment string
	// Urgent, when set, registers what must run even if the user will not
	// wait for the capture to end (a second Ctrl-C): the profiler's
	// restore. It returns the function that unregisters it.
	Urgent func(fn func()) (remove func())
}

// Source says what one source recorded and whether its counts are rates.
type Source struct {
	Name     string
	Tally    Tally
	From, To time.Time
	Complete bool   // every operation of the window was recorded
	Why      string // how Complete was decided
	Sampling float64
	// Executions is how many operations the source read; Ops holds them
	// only when they were not handed on as read (tests, fixtures).
	Executions float64
	Ops        []Op
	// Arrivals is the executions of each second (Unix time) the source
	// recorded one by one: the rate curve (curve.go). Nil for a source
	// that counts executions in aggregate ($queryStats).
	Arrivals map[int64]float64
}

// Result is a capture: what the sources recorded, grouped by shape, and
// the collections they touched.
type Result struct {
	Sources     []*Source
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
	// weighed: the sources' counts were put in one unit (weight.go).
	weighed    bool
	weightNote string
}

// Run captures from the sources the options name. srv may be nil (logs
// and exports only; no collections are sampled then).
func Run(ctx context.Context, srv Server, o Options) (*Result, error) {
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
		emit = func(op Op) bool { o.Trace(&op); return res.Shapes.Add(op) }
	}
	for _, path := range o.Exports {
		src, err := readExport(path, o.Databases, emit)
		if err != nil {
			return nil, err
		}
		res.Sources = append(res.Sources, src)
	}
	if len(o.Logs) > 0 {
		src, err := ReadLogs(o.Logs, o.Databases, emit)
		if err != nil {
			return nil, err
		}
		res.Sources = append(res.Sources, src)
	}
	if srv != nil && o.QueryStats {
		src, err := queryStats(ctx, srv, o, emit)
		if err != nil {
			return nil, err
		}
		res.Sources = append(res.Sources, src)
	}
	if srv != nil && (o.Profiler || len(res.Sources) == 0 && !o.QueryStats) {
		src, lost, err := profile(ctx, srv, o, emit, &res.Unresponsive)
		if err != nil {
			return nil, err
		}
		res.Sources = append(res.Sources, src)
		res.ServerLost = lost
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
		parts = append(parts, fmt.Sprintf("%s: %d entries read, %s", s.Name, s.Tally.Read, s.Tally.skipped()))
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

func (t Tally) skipped() string {
	var parts []string
	for _, k := range sortedKeys(t.Skipped) {
		parts = append(parts, fmt.Sprintf("%d %s", t.Skipped[k], k))
	}
	for _, k := range sortedKeys(t.Unsupported) {
		parts = append(parts, fmt.Sprintf("%d unsupported %s", t.Unsupported[k], k))
	}
	if t.Garbage > 0 {
		parts = append(parts, fmt.Sprintf("%d unreadable lines", t.Garbage))
	}
	if t.Truncated > 0 {
		parts = append(parts, fmt.Sprintf("%d truncated commands (the server logged only part of them: not replayed)", t.Truncated))
	}
	if t.Own > 0 {
		parts = append(parts, fmt.Sprintf("%d entries of capture's own reads (appName %s)", t.Own, AppName))
	}
	if t.TooLong > 0 {
		parts = append(parts, fmt.Sprintf("%d lines over %d MiB", t.TooLong, maxLine>>20))
	}
	for _, k := range sortedKeys(t.Odd) {
		parts = append(parts, fmt.Sprintf("%d %s", t.Odd[k], k))
	}
	if len(parts) == 0 {
		return "none skipped"
	}
	return "skipped: " + strings.Join(parts, ", ")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func readExport(path string, dbs []string, emit func(Op) bool) (*Source, error) {
	open := func() (io.ReadCloser, io.Reader, error) {
		f, err := os.Open(path)
		if err != nil {
			return nil, nil, fmt.Errorf("profiler export %s: %w", path, err)
		}
		return f, maybeGzip(f), nil
	}
	f, r, err := open()
	if err != nil {
		return nil, err
	}
	p := &Profiled{Databases: dbs, Emit: emit}
	err = p.ReadExport(r, path)
	f.Close()
	if errors.Is(err, errNoLine) {
		// Not one document a line: documents written over several lines
		// (JSON.stringify(doc, null, 2), an array), as real exports are.
		if f, r, err = open(); err != nil {
			return nil, err
		}
		defer f.Close()
		p = &Profiled{Databases: dbs, Emit: emit}
		if perr := p.ReadDocuments(r, path); perr != nil {
			return nil, err
		}
		err = nil
	}
	if err != nil {
		return nil, err
	}
	return p.source("profiler export "+path, "an export records no profiling level: the mix only, not the rate (give --rate)"), nil
}

// sampleCollections reads the count, size, a sample and the indexes of
// every collection a shape touched.
func (r *Result) sampleCollections(ctx context.Context, srv Server) {
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
			c.Notes = append(c.Notes, "collStats: "+firstLine(err))
		}
		if err := srv.SampleEach(ctx, sh.DB, sh.Coll, r.Opts.Sample, func(d bson.Raw) error { c.AddSample(d, rnd); return nil }); err != nil {
			c.Notes = append(c.Notes, "$sample: "+firstLine(err))
			if mongodb.IsConnectionLoss(err) || mongodb.IsUnavailable(err) {
				r.ServerLost = true // no use waiting for it on every collection
				continue
			}
		}
		c.readTimeseries(ctx, srv)
		ix, err := srv.Indexes(ctx, sh.DB, sh.Coll)
		if err != nil {
			c.Notes = append(c.Notes, "listIndexes: "+firstLine(err))
		}
		c.Indexes = ix
	}
}

func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}
