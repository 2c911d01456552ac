package source

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/mongodb"
)

// profile reads each database's system.profile: without a duration, what
// it holds; with one, what arrives during the window (a tailable cursor
// from after the last entry it held), so that the window, and the rate,
// are exactly those of the capture. With EnableProfiler the level is set
// for the window and restored on every way out.
func Profile(ctx context.Context, srv Server, o Options, emit func(Op) bool, unresponsive *bool) (src *Source, serverLost bool, err error) {
	if len(o.Databases) == 0 {
		return nil, false, errors.New("the profiler is per database: name the databases to capture with --database")
	}
	if o.EnableProfiler && o.Duration <= 0 {
		return nil, false, errors.New("--enable-profiler records a window: give its length with --duration (such as --duration 10m)")
	}
	if sharded, err := srv.Sharded(ctx); err == nil && sharded {
		return nil, false, errors.New("this is a mongos, which has no profiler: capture from each shard's primary (--uri of the shard, with --database), or from the shards' logs (--log), and name the shard in --name")
	}
	p := &Profiled{Databases: o.Databases, Emit: emit}
	src = &Source{Name: "profiler", Sampling: 1}
	id := captureSeq.Add(1)
	o.id = &id
	ceiling := o.SampleRate
	if ceiling <= 0 {
		ceiling = 1
	}
	rate := startRate(o, ceiling)
	// The profile command creates a database that does not exist: a
	// mistyped --database must not leave one behind. Checked before
	// anything else is said or measured.
	for _, db := range o.Databases {
		if !o.EnableProfiler {
			break
		}
		if names, err := srv.Collections(ctx, db); err != nil {
			return nil, false, fmt.Errorf("check that database %s exists before turning its profiler on: %w", db, err)
		} else if len(names) == 0 {
			return nil, false, fmt.Errorf("database %s does not exist on this server (it holds no collection): check --database; turning its profiler on would create it", db)
		}
	}
	// The source's baseline, before the profiler changes (guard.go).
	var g *guard
	if o.EnableProfiler && o.Duration > 0 {
		if g, err = baseline(ctx, srv, o); err != nil {
			switch {
			case ctx.Err() != nil:
				return nil, false, fmt.Errorf("interrupted before the window opened: %w", ctx.Err())
			case o.MaxImpact > 0:
				return nil, false, fmt.Errorf("--max-impact needs the source's serverStatus (the clusterMonitor role) to measure what the profiler costs: %s", FirstLine(err))
			}
			o.Progress("warning: the profiler's cost on the source is not measured: serverStatus: " + FirstLine(err))
		}
	}
	var states []mongodb.ProfilerState
	for _, db := range o.Databases {
		st, err := srv.Profiler(ctx, db)
		if err != nil {
			return nil, false, fmt.Errorf("read the profiling level of %s: %w", db, err)
		}
		original, notice, shared := o.leftBehind(db, st)
		if shared {
			o.Progress(notice)
		} else if notice != "" {
			o.Progress("warning: " + notice)
			src.Tally.Lost = append(src.Tally.Lost, notice)
		}
		states = append(states, st)
		if !o.EnableProfiler {
			continue
		}
		want := mongodb.ProfilerState{Level: 2, SlowMS: st.SlowMS, SampleRate: rate}
		if o.SlowMS >= 0 {
			want = mongodb.ProfilerState{Level: 1, SlowMS: o.SlowMS, SampleRate: rate}
		}
		if err := o.writeMarker(marker{Database: db, Found: original, Set: want, PID: os.Getpid(), Since: o.Now().UTC()}); err != nil {
			return nil, false, err
		}
		if err := srv.SetProfiler(ctx, db, want); err != nil {
			// Ctrl-C (or a lost connection) during the command: the server
			// may have applied it all the same, so it is put back.
			if restoreProfiler(srv, db, original, o.Progress) {
				o.removeMarker(db)
			}
			return nil, false, fmt.Errorf("turn the profiler of %s on: %w", db, err)
		}
		var once sync.Once
		restore := func() {
			once.Do(func() {
				if others := o.othersReading(db); others != "" {
					o.removeMarker(db)
					o.Progress(fmt.Sprintf("profiler of %s left at level %d: capture (pid %s) is still reading it; the last capture to end restores level %d", db, want.Level, others, original.Level))
					return
				}
				if !restoreProfiler(srv, db, original, o.Progress) {
					*unresponsive = ctx.Err() != nil
					return
				}
				o.removeMarker(db)
			})
		}
		remove := func() {}
		if o.Urgent != nil {
			remove = o.Urgent(restore)
		}
		defer func() { restore(); remove() }()
		states[len(states)-1] = inForce(ctx, srv, db, want, o.Progress)
		o.Progress(fmt.Sprintf("profiler of %s at level %d (slowms %d, sampleRate %g) for the window; it goes back to level %d after", db, want.Level, want.SlowMS, states[len(states)-1].SampleRate, original.Level))
	}
	if o.Duration > 0 {
		// The guard may end the window early; Ctrl-C still ends it (ctx).
		wctx, endWindow := context.WithCancel(ctx)
		watched := make(chan struct{})
		if g != nil {
			g.start(ctx, slices.Clone(states), rate, ceiling)
			go func() { defer close(watched); g.watch(wctx, endWindow) }()
		} else {
			close(watched)
		}
		serverLost, err = tailWindow(wctx, srv, o, p, src)
		endWindow()
		<-watched // no sampleRate change after this: the profiler is restored next
		if err != nil {
			return nil, false, err
		}
	} else {
		for _, db := range o.Databases {
			err := srv.AggregateEach(ctx, db, "system.profile", bson.A{}, func(d bson.Raw) error { p.Add(d); return nil })
			if err != nil {
				return nil, false, fmt.Errorf("read %s.system.profile: %w", db, err)
			}
		}
	}
	lost := src.Tally.Lost
	src.Tally = p.Tally
	src.Tally.Lost = append(src.Tally.Lost, lost...)
	src.Ops, src.Executions, src.Arrivals = p.Ops, p.Executions, p.Arrivals
	if o.Duration <= 0 {
		src.From, src.To = p.From, p.To // a tail window is the clock's (tailWindow)
	}
	src.complete(states, p)
	if p.heldRatio > 0 && p.heldRatio < 1 {
		// Added to what the profiler recorded (its sampleRate and the
		// warning beside it), never in its place.
		src.Sampling *= p.heldRatio
		src.Why += fmt.Sprintf("; capture read %.1f%% of the entries the profiler held for the window (the rest lost: the tail fell behind), so the counts are divided by %.3g in all", 100*p.heldRatio, src.Sampling)
	}
	if g != nil {
		g.finish(ctx, src)
	}
	return src, serverLost, nil
}

// tailWindow follows every database's profiler for the window, from after
// the last entry each held; the window is the clock time it lasted, cut
// short by Ctrl-C or a server that goes away (what was read is kept).
func tailWindow(ctx context.Context, srv Server, o Options, p *Profiled, src *Source) (serverLost bool, err error) {
	until := time.Now().Add(o.Duration)
	var mu sync.Mutex
	first := true
	var late int
	add := func(d bson.Raw) {
		mu.Lock()
		defer mu.Unlock()
		if ts, ok := d.Lookup("ts").DateTimeOK(); ok && bson.DateTime(ts).Time().After(until) {
			late++ // ran after the window: read while draining its end
			return
		}
		p.Add(d)
		if first && p.Tally.Read > 0 {
			first = false
			o.Progress("the first entry of the window arrived")
		}
	}
	var wg sync.WaitGroup
	errs := make([]error, len(o.Databases))
	filters := make([]bson.D, len(o.Databases))
	for i, db := range o.Databases {
		last := bson.A{bson.D{{Key: "$sort", Value: bson.D{{Key: "ts", Value: -1}}}}, bson.D{{Key: "$limit", Value: 1}}}
		if err := srv.AggregateEach(ctx, db, "system.profile", last, func(d bson.Raw) error {
			filters[i] = bson.D{{Key: "ts", Value: bson.D{{Key: "$gt", Value: d.Lookup("ts")}}}}
			return nil
		}); err != nil {
			if ctx.Err() != nil {
				return false, nil // interrupted before the window opened
			}
			return false, fmt.Errorf("read %s.system.profile: %w", db, err)
		}
	}
	src.From = o.Now().UTC()
	// Ctrl-C ends the window when it is pressed, not when the reads
	// (on a server that may not answer) give up.
	var stopped time.Time
	stop := context.AfterFunc(ctx, func() {
		mu.Lock()
		defer mu.Unlock()
		stopped = o.Now().UTC()
	})
	defer stop()
	o.Progress(fmt.Sprintf("reading the profiler for %s (Ctrl-C ends the window early and keeps what was read)", o.Duration))
	for i, db := range o.Databases {
		filter := filters[i]
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = readProfile(ctx, until, srv, db, filter, add, src, &mu)
		}()
	}
	wg.Wait()
	// The window's end: the clock's, not the end of the last reads (which
	// drain what the profiler recorded before it, and drop what after).
	src.To = o.Now().UTC()
	if u := until.UTC(); u.Before(src.To) {
		src.To = u
	}
	mu.Lock()
	if !stopped.IsZero() && stopped.Before(src.To) {
		src.To = stopped
	}
	mu.Unlock()
	for i, err := range errs {
		if err != nil {
			src.Tally.Lost = append(src.Tally.Lost, "the profiler of "+o.Databases[i]+" stopped answering: "+FirstLine(err)+"; the window ends there, what was read before is kept")
			serverLost = true
		}
	}
	if !serverLost && ctx.Err() == nil { // not after Ctrl-C: the user is not kept waiting
		held := countHeld(ctx, srv, o.Databases, filters, src.To)
		mu.Lock()
		p.compareHeld(held, src)
		mu.Unlock()
	}
	return serverLost, nil
}

// countHeld counts the entries system.profile holds for the window (from
// each database's filter to the window's end), capture's own left out:
// what the tail should have read. -1 when it cannot be counted.
func countHeld(ctx context.Context, srv Server, dbs []string, filters []bson.D, to time.Time) int64 {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	var held int64
	for i, db := range dbs {
		match := notOwn(bson.D{{Key: "ts", Value: bson.D{{Key: "$lte", Value: to}}}})
		if len(filters[i]) > 0 {
			match = bson.D{{Key: "$and", Value: bson.A{filters[i], match}}}
		}
		pipeline := bson.A{bson.D{{Key: "$match", Value: match}}, bson.D{{Key: "$count", Value: "n"}}}
		err := srv.AggregateEach(ctx, db, "system.profile", pipeline, func(d bson.Raw) error {
			held += int64(mongodb.Number(d.Lookup("n")))
			return nil
		})
		if err != nil {
			return -1
		}
	}
	return held
}

// compareHeld sets what the profiler held for the window beside what the
// tail read: entries it held but capture did not read are lost, said in
// a lost: line, and the counts become a sample of the window's (divided
// by what was read of it), not "every operation".
func (p *Profiled) compareHeld(held int64, src *Source) {
	read := int64(p.Tally.Read)
	if held <= read || held <= 0 {
		return
	}
	src.Tally.Lost = append(src.Tally.Lost, fmt.Sprintf("the profiler holds %d entries of the window, capture read %d: %d (%.0f%%) lost, the tail fell behind; the counts are divided by the part read", held, read, held-read, 100*float64(held-read)/float64(held)))
	p.heldRatio = float64(read) / float64(held)
}

// notOwn leaves capture's own reads out of a count of the window's
// entries (each of its getMores is profiled; Tally.Read leaves them out).
func notOwn(f bson.D) bson.D {
	return append(f, bson.E{Key: "appName", Value: bson.D{{Key: "$ne", Value: AppName}}})
}

// readProfile follows one database's capped system.profile until ctx
// ends, from the entries filter matches; a cursor killed under it (the cap
// overwrote its position) is reported as a gap and reopened.
func readProfile(ctx context.Context, until time.Time, srv Server, db string, filter bson.D, add func(bson.Raw), src *Source, mu *sync.Mutex) error {
	after := func(last bson.Raw) bson.D {
		return bson.D{{Key: "ts", Value: bson.D{{Key: "$gt", Value: last.Lookup("ts")}}}}
	}
	return srv.TailEach(ctx, until, db, "system.profile", filter, after, add, func(err error) {
		mu.Lock()
		defer mu.Unlock()
		src.Tally.Lost = append(src.Tally.Lost, fmt.Sprintf("%s, %s: the profiler's cap overwrote entries before they were read (%s); the gap is lost, raise system.profile's size to keep up", time.Now().UTC().Format(time.TimeOnly), db, FirstLine(err)))
	})
}

// restoreProfiler puts a database's profiler back as it was, whatever
// ended the capture (an error, the window, Ctrl-C, a second Ctrl-C), and
// reports whether it could. A server that does not answer within seconds
// is not waited for: the marker left in place makes the next capture
// restore it, and the line says what to run meanwhile.
func restoreProfiler(srv Server, db string, st mongodb.ProfilerState, progress func(string)) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := srv.SetProfiler(ctx, db, st); err != nil {
		progress(fmt.Sprintf("warning: could not restore the profiler of %s to level %d (slowms %d): %v; the next capture --enable-profiler of %s restores it, or in mongosh: %s", db, st.Level, st.SlowMS, FirstLine(err), db, restoreLine(db, st)))
		return false
	}
	progress(fmt.Sprintf("profiler of %s restored to level %d (slowms %d)", db, st.Level, st.SlowMS))
	return true
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
		s.Why += fmt.Sprintf("; sampleRate %g, as the server reports it: counts divided by it (a server that records every operation whatever its sampleRate, as the test server does, makes the rate 1/%g too high: capture at --sample-rate 1 there, or give --rate)", s.Sampling, s.Sampling)
	}
}

// inForce is the profiler's state as the server reports it once set: the
// sample rate the counts are divided by is the one in force, not the one
// asked for (a server may keep its own, or round it); a difference is said.
func inForce(ctx context.Context, srv Server, db string, want mongodb.ProfilerState, progress func(string)) mongodb.ProfilerState {
	got, err := srv.Profiler(ctx, db)
	if err != nil || got.SampleRate <= 0 || got.SampleRate == want.SampleRate {
		return want
	}
	progress(fmt.Sprintf("profiler of %s: sampleRate %g asked, the server reports %g: the counts are divided by %g", db, want.SampleRate, got.SampleRate, got.SampleRate))
	want.SampleRate = got.SampleRate
	return want
}
