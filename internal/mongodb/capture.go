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

// TailEach calls each with every document of the capped collection db.coll
// matching filter, in insertion order, then with those inserted later (a
// tailable, awaiting cursor), until the time until or until ctx ends. A
// cursor the server kills (its position overwritten by the cap, the
// collection dropped) is reopened after the last document seen, from
// after(last), and lost is called with the error, so the caller can
// report the gap. The cursor waits at most 200 ms per getMore, so the
// window ends within that of until.
func (cl *Client) TailEach(ctx context.Context, until time.Time, db, coll string, filter bson.D, after func(bson.Raw) bson.D, each func(bson.Raw), lost func(error)) error {
	c := cl.c.Database(db).Collection(coll)
	var last bson.Raw
	open := func() bool { return ctx.Err() == nil && time.Now().Before(until) }
	for open() {
		f := filter
		if last != nil {
			f = after(last)
		}
		if f == nil {
			f = bson.D{}
		}
		opts := options.Find().SetCursorType(options.TailableAwait).SetMaxAwaitTime(200 * time.Millisecond)
		cur, err := c.Find(ctx, f, opts)
		if err != nil {
			if !open() {
				return nil
			}
			return privilege(err, "find on "+db+"."+coll+" (the read role)")
		}
		for open() {
			if cur.TryNext(ctx) {
				last = append(bson.Raw(nil), cur.Current...)
				each(last)
				continue
			}
			if cur.Err() != nil || cur.ID() == 0 {
				break
			}
		}
		err = cur.Err()
		_ = cur.Close(context.Background())
		switch {
		case !open():
			return nil
		case err != nil && (IsConnectionLoss(err) || IsUnavailable(err)):
			return err // the server went away: the caller keeps what was read
		case err != nil:
			lost(err)
			continue
		}
		// A dead cursor without an error: the collection was empty, or the
		// server does not tail. Poll again shortly.
		select {
		case <-ctx.Done():
		case <-time.After(200 * time.Millisecond):
		}
	}
	return nil
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
