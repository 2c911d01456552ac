package source

import (
	"context"
	"errors"
	"fmt"
	"os"
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

// Options are what the sources need of a capture's options.
type Options struct {
	Databases      []string
	Duration       time.Duration // profiler: also tail what arrives for this long
	EnableProfiler bool
	SlowMS         int64 // with EnableProfiler: level 1 at this slowms; <0: level 2
	Now            func() time.Time
	Progress       func(string) // one-line notices while capturing
	// StateDir holds the markers of profilers this capture changed
	// (marker.go), under Deployment's name; "" keeps none.
	StateDir   string
	Deployment string
	// Urgent, when set, registers what must run even if the user will not
	// wait for the capture to end (a second Ctrl-C): the profiler's
	// restore. It returns the function that unregisters it.
	Urgent func(fn func()) (remove func())
	// MaxImpact bounds the profiler's cost on the source, in percent
	// (guard.go); 0: measured and reported, not bounded.
	MaxImpact float64
	// SampleRate is the profiler's sampleRate for the window (0: 1).
	SampleRate float64

	id *int64 // this capture's, among the process's (marker.go)
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
	// Impact is the profiler's measured cost on the source over the
	// window (guard.go), ImpactNotes what the guard did; Protected, when
	// set, says why the window was ended to protect the source.
	Impact      string
	ImpactNotes []string
	Protected   string
}

func ReadExport(path string, dbs []string, emit func(Op) bool) (*Source, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("profiler export %s: %w", path, err)
	}
	defer f.Close()
	p := &Profiled{Databases: dbs, Emit: emit}
	// A stream's bytes are kept until a line is read as a document: then
	// the second reading below is not needed (reread.go).
	r, err := newRereader(f, func() bool { return p.Tally.Read+p.Tally.Own == 0 })
	if err != nil {
		return nil, fmt.Errorf("profiler export %s: %w", path, err)
	}
	err = p.ReadExport(maybeGzip(r), path)
	if errors.Is(err, errNoLine) {
		// Not one document a line: documents written over several lines
		// (JSON.stringify(doc, null, 2), an array), as real exports are.
		// If that finds none either, the line reader's error says what
		// was read (it was lost here, and a nil source panicked).
		first := err
		start, aerr := r.again()
		if aerr != nil {
			return nil, fmt.Errorf("profiler export %s: not one document a line, and %w", path, aerr)
		}
		p = &Profiled{Databases: dbs, Emit: emit}
		if perr := p.ReadDocuments(maybeGzip(start), path); perr != nil {
			return nil, first
		}
		err = nil
	}
	if err != nil {
		return nil, err
	}
	return p.Source("profiler export "+path, "an export records no profiling level: the mix only, not the rate (give --rate)"), nil
}
