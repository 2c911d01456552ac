package mongodb

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// What mongoload capture reads from a live deployment. Every call here
// only reads, but for SetProfiler, which capture makes only when asked
// (--enable-profiler) and always undoes.

// ProfilerState is a database's profiler setting (the profile command).
type ProfilerState struct {
	Level      int
	SlowMS     int64
	SampleRate float64 // 1 when the server does not report one
}

// Profiler reads the profiling level of db without changing it
// (profile: -1).
func (cl *Client) Profiler(ctx context.Context, db string) (ProfilerState, error) {
	raw, err := cl.Command(ctx, db, bson.D{{Key: "profile", Value: -1}})
	if err != nil {
		return ProfilerState{}, privilege(err, "profile on "+db+" (the dbAdmin role, or enableProfiler)")
	}
	st := ProfilerState{Level: int(Number(raw.Lookup("was"))), SlowMS: int64(Number(raw.Lookup("slowms"))), SampleRate: 1}
	if v := raw.Lookup("sampleRate"); v.Type != 0 {
		st.SampleRate = Number(v)
	}
	return st, nil
}

// SetProfiler sets the profiling level, slowms and sample rate of db.
func (cl *Client) SetProfiler(ctx context.Context, db string, st ProfilerState) error {
	cmd := bson.D{{Key: "profile", Value: st.Level}, {Key: "slowms", Value: st.SlowMS}}
	if st.SampleRate > 0 {
		cmd = append(cmd, bson.E{Key: "sampleRate", Value: st.SampleRate})
	}
	_, err := cl.Command(ctx, db, cmd)
	return privilege(err, "profile on "+db+" (the dbAdmin role, or enableProfiler)")
}

// tailPace is the least time between two reads of a tailed collection.
// Read from the profiler it tails, each getMore is itself profiled: one
// read a wake-up would wake the next at once, hundreds a second, filling
// the capped collection with the reader's own entries and evicting the
// application's. Paced, the reader adds about one entry a second.
const tailPace = time.Second

// tailBatch is the most entries one read of a tail returns: a read that
// comes back full means more wait, and the next read goes at once.
const tailBatch = 1000

// drain reads what the tailable cursor has: one getMore, and another at
// once while they come back full (the reader is behind), until deadline;
// true when the deadline passed with the reader still behind. A read
// that is not full means it caught up: the next waits a tailPace, so
// that capture's own reads, each profiled, stay about one a second.
func (cl *Client) drain(ctx context.Context, cur *mongo.Cursor, deadline time.Time, each func(bson.Raw)) bool {
	for ctx.Err() == nil {
		start := time.Now()
		got := cur.TryNext(ctx) // one getMore
		cl.tailReads.Add(1)
		cl.tailNanos.Add(int64(time.Since(start)))
		if !got {
			return false
		}
		n := 1 + cur.RemainingBatchLength()
		each(cur.Current)
		for cur.RemainingBatchLength() > 0 && cur.TryNext(ctx) {
			each(cur.Current)
		}
		if n < tailBatch {
			return false
		}
		if time.Now().After(deadline) {
			return true
		}
	}
	return false
}

// OwnReads is how many reads TailEach made and the time they took, as
// the client saw it: what a measure of the server's read latency leaves
// out (a tail's getMore waits up to 100 ms for entries).
func (cl *Client) OwnReads() (int64, time.Duration) {
	return cl.tailReads.Load(), time.Duration(cl.tailNanos.Load())
}

// TailEach calls each with every document of the capped collection db.coll
// matching filter, in insertion order, then with those inserted later (a
// tailable, awaiting cursor read in batches, one getMore a tailPace, at
// once while they come back full), until
// the time until or until ctx ends; it reads once more at until, so that
// the window's last entries are not left behind. A cursor the server kills
// (its position overwritten by the cap, the collection dropped) is reopened
// after the last document seen, from after(last), and lost is called with
// the error, so the caller can report the gap.
func (cl *Client) TailEach(ctx context.Context, until time.Time, db, coll string, filter bson.D, after func(bson.Raw) bson.D, each func(bson.Raw), lost func(error)) error {
	c := cl.c.Database(db).Collection(coll)
	var last bson.Raw
	open := func() bool { return ctx.Err() == nil && time.Now().Before(until) }
	// pause waits for the next read: tailPace, or until the window ends;
	// false when ctx ended (no more reads) or the window has (one more).
	pause := func() bool {
		wait := min(tailPace, time.Until(until))
		if wait <= 0 {
			return false
		}
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-ctx.Done():
		case <-t.C:
		}
		return open()
	}
	for ctx.Err() == nil {
		f := filter
		if last != nil {
			f = after(last)
		}
		if f == nil {
			f = bson.D{}
		}
		opts := options.Find().SetCursorType(options.TailableAwait).SetMaxAwaitTime(100 * time.Millisecond).SetBatchSize(tailBatch)
		cur, err := c.Find(ctx, f, opts)
		if err != nil {
			if !open() {
				return nil
			}
			return privilege(err, "find on "+db+"."+coll+" (the read role)")
		}
		final, behind := false, false
		for ctx.Err() == nil {
			for cur.RemainingBatchLength() > 0 && cur.TryNext(ctx) {
				last = append(bson.Raw(nil), cur.Current...)
				each(last)
			}
			if cur.Err() != nil || cur.ID() == 0 || final {
				break
			}
			// Behind (the last read stopped with entries left), read on
			// at once; caught up, wait a tailPace. A reader one batch a
			// second behind a busy profiler never catches up, and the
			// window's end would leave the backlog unread.
			if behind {
				final = !open()
			} else {
				final = !pause()
			}
			if ctx.Err() != nil {
				break
			}
			budget := tailPace
			if final {
				budget = 5 * tailPace // the window's last entries
			}
			behind = cl.drain(ctx, cur, time.Now().Add(budget), func(d bson.Raw) {
				last = append(bson.Raw(nil), d...)
				each(last)
			})
		}
		err = cur.Err()
		// A frozen server must not hold the capture after Ctrl-C: the
		// cursor is closed in the background's time, not the user's.
		cctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_ = cur.Close(cctx)
		cancel()
		switch {
		case ctx.Err() != nil || final:
			return nil
		case err != nil && (IsConnectionLoss(err) || IsUnavailable(err)):
			return err // the server went away: the caller keeps what was read
		case err != nil:
			lost(err)
			continue
		}
		// A dead cursor without an error: the collection was empty, or the
		// server does not tail. Read again after a pause.
		if !pause() {
			return nil
		}
	}
	return nil
}

// Collections lists the names of db's collections; a database that does
// not exist has none.
func (cl *Client) Collections(ctx context.Context, db string) ([]string, error) {
	names, err := cl.c.Database(db).ListCollectionNames(ctx, bson.D{}, options.ListCollections().SetNameOnly(true))
	return names, privilege(err, "listCollections on "+db+" (the read role)")
}

// SampleEach calls each with up to n documents of db.coll drawn by $sample.
func (cl *Client) SampleEach(ctx context.Context, db, coll string, n int, each func(bson.Raw) error) error {
	err := cl.AggregateEach(ctx, db, coll, bson.A{bson.D{{Key: "$sample", Value: bson.D{{Key: "size", Value: n}}}}}, each)
	return privilege(err, "aggregate ($sample) on "+db+"."+coll+" (the read role)")
}

// Indexes lists the index specifications of db.coll as the server
// reports them (key, name, unique, partialFilterExpression,
// expireAfterSeconds, ...).
func (cl *Client) Indexes(ctx context.Context, db, coll string) ([]bson.Raw, error) {
	cur, err := cl.c.Database(db).Collection(coll).Indexes().List(ctx)
	if err != nil {
		return nil, privilege(err, "listIndexes on "+db+"."+coll+" (the read role)")
	}
	var out []bson.Raw
	err = eachDocument(ctx, cur, func(d bson.Raw) error { out = append(out, append(bson.Raw(nil), d...)); return nil })
	return out, err
}

// privilege adds, to a refusal for want of a privilege, the action and
// role that grant it, so the user knows what to ask their administrator.
func privilege(err error, need string) error {
	if err == nil {
		return nil
	}
	var ce mongo.CommandError
	if errors.As(err, &ce) && (ce.Code == 13 || ce.Name == "Unauthorized") {
		return fmt.Errorf("%w: the user lacks the privilege %s", err, need)
	}
	return err
}

// Number reads a BSON number of any type as a float64 (0 when absent).
func Number(v bson.RawValue) float64 {
	switch v.Type {
	case bson.TypeInt32:
		return float64(v.Int32())
	case bson.TypeInt64:
		return float64(v.Int64())
	case bson.TypeDouble:
		return v.Double()
	}
	return 0
}

// AdminAggregateEach runs a collection-less pipeline on the admin
// database ($queryStats, $currentOp) and calls each with its documents.
func (cl *Client) AdminAggregateEach(ctx context.Context, pipeline any, each func(bson.Raw) error) error {
	cur, err := cl.c.Database("admin").Aggregate(ctx, pipeline)
	if err != nil {
		return privilege(err, "queryStatsRead on the cluster (the clusterMonitor role)")
	}
	return eachDocument(ctx, cur, each)
}
