package capture

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/mongodb"
)

// profile reads each database's system.profile: what it holds, then, with
// a duration, what arrives during the window. With EnableProfiler the
// level is set for the window and restored on every way out.
func profile(ctx context.Context, srv Server, o Options) (*Source, error) {
	if len(o.Databases) == 0 {
		return nil, errors.New("the profiler is per database: name the databases to capture with --database")
	}
	p := &Profiled{Databases: o.Databases}
	src := &Source{Name: "profiler", Sampling: 1}
	var states []mongodb.ProfilerState
	for _, db := range o.Databases {
		st, err := srv.Profiler(ctx, db)
		if err != nil {
			return nil, fmt.Errorf("read the profiling level of %s: %w", db, err)
		}
		states = append(states, st)
		if o.EnableProfiler {
			want := mongodb.ProfilerState{Level: 2, SlowMS: st.SlowMS, SampleRate: 1}
			if o.SlowMS >= 0 {
				want = mongodb.ProfilerState{Level: 1, SlowMS: o.SlowMS, SampleRate: 1}
			}
			if err := srv.SetProfiler(ctx, db, want); err != nil {
				return nil, fmt.Errorf("turn the profiler of %s on: %w", db, err)
			}
			defer restoreProfiler(srv, db, st, o.Progress)
			states[len(states)-1] = want
			o.Progress(fmt.Sprintf("profiler of %s at level %d (slowms %d) for the window; it goes back to level %d after", db, want.Level, want.SlowMS, st.Level))
		}
	}
	wctx := ctx
	if o.Duration > 0 {
		var cancel context.CancelFunc
		wctx, cancel = context.WithTimeout(ctx, o.Duration)
		defer cancel()
		o.Progress(fmt.Sprintf("reading the profiler for %s (Ctrl-C ends the window early and keeps what was read)", o.Duration))
	}
	for _, db := range o.Databases {
		if err := readProfile(wctx, srv, db, o.Duration > 0, p, src); err != nil {
			if ctx.Err() == nil && len(p.Ops) == 0 {
				return nil, err
			}
			src.Tally.Lost = append(src.Tally.Lost, "the profiler of "+db+" stopped answering: "+firstLine(err)+"; what was read before is kept")
		}
	}
	lost := src.Tally.Lost
	src.Tally = p.Tally
	src.Tally.Lost = append(src.Tally.Lost, lost...)
	src.Ops = p.Ops
	src.window()
	src.complete(states, p)
	return src, nil
}

// readProfile reads one database's profiler entries (and, when tail is
// set, follows the capped collection until ctx ends).
func readProfile(ctx context.Context, srv Server, db string, tail bool, p *Profiled, src *Source) error {
	if !tail {
		return srv.AggregateEach(ctx, db, "system.profile", bson.A{}, func(d bson.Raw) error { p.Add(d); return nil })
	}
	after := func(last bson.Raw) bson.D {
		return bson.D{{Key: "ts", Value: bson.D{{Key: "$gt", Value: last.Lookup("ts")}}}}
	}
	return srv.TailEach(ctx, db, "system.profile", bson.D{}, after, p.Add, func(err error) {
		src.Tally.Lost = append(src.Tally.Lost, fmt.Sprintf("%s: the profiler's cap overwrote entries before they were read (%s); the gap is lost, raise system.profile's size to keep up", time.Now().UTC().Format(time.TimeOnly), firstLine(err)))
	})
}

// restoreProfiler puts a database's profiler back as it was, whatever
// ended the capture (an error, the window, Ctrl-C).
func restoreProfiler(srv Server, db string, st mongodb.ProfilerState, progress func(string)) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.SetProfiler(ctx, db, st); err != nil {
		progress(fmt.Sprintf("warning: could not restore the profiler of %s to level %d (slowms %d): %v; set it back with db.setProfilingLevel(%d, %d)", db, st.Level, st.SlowMS, err, st.Level, st.SlowMS))
		return
	}
	progress(fmt.Sprintf("profiler of %s restored to level %d (slowms %d)", db, st.Level, st.SlowMS))
}

// complete decides whether the profiler recorded every operation, so
// that counts over the window are rates: level 2, or level 1 with slowms
// 0, now; or entries faster than today's slowms, which only a profiler
// recording every operation keeps.
func (s *Source) complete(states []mongodb.ProfilerState, p *Profiled) {
	all := true
	for _, st := range states {
		s.Sampling = st.SampleRate
		switch {
		case st.Level == 2 || st.Level == 1 && st.SlowMS <= 0:
			s.Why = fmt.Sprintf("profiler at level %d, slowms %d: every operation recorded", st.Level, st.SlowMS)
		case p.seen && p.Fastest < st.SlowMS:
			s.Why = fmt.Sprintf("profiler now at level %d, but it recorded operations of %d ms, under slowms %d: it recorded every operation when these ran", st.Level, p.Fastest, st.SlowMS)
		default:
			all = false
			s.Why = fmt.Sprintf("profiler at level %d, slowms %d: only operations slower than %d ms were recorded, so the counts give the mix of slow operations, not the rate", st.Level, st.SlowMS, st.SlowMS)
		}
	}
	s.Complete = all
	if s.Sampling > 0 && s.Sampling < 1 {
		s.Why += fmt.Sprintf("; sampleRate %g: counts divided by it", s.Sampling)
	}
}
