package mongodb

import (
	"context"
	"errors"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/mongoload/mongoload/internal/generate"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/workload"
)

// Executor runs one operation of the plan. Its collection handle and fixed
// options are built once, so executing costs only what the driver costs.
type Executor struct {
	op   *workload.Op
	coll *mongo.Collection
	// wtimeout bounds writes with the write concern's client-side deadline
	// (clientTimeout); the server is not told of it.
	wtimeout time.Duration
	find     *options.FindOptionsBuilder
	findOne  *options.FindOneOptionsBuilder
	fau      *options.FindOneAndUpdateOptionsBuilder
	update   *options.UpdateOneOptionsBuilder
	updMany  *options.UpdateManyOptionsBuilder
	replace  *options.ReplaceOptionsBuilder
	count    *options.CountOptionsBuilder
	txn      *txn // set for a transaction
	// staticProjection and staticSort: those of a StaticOptions op.
	staticProjection, staticSort []byte
	// send is the path a built request takes: the executor itself (the
	// public API), or the driver's lower layer (fastOp, --driver-path fast).
	send path
}

// path sends one built request and says what the server did with documents.
type path interface {
	run(ctx context.Context, r *workload.Request) (metrics.Docs, error)
}

// Executors prepares one Executor per operation of the plan, in plan order.
func (cl *Client) Executors(plan *workload.Plan) ([]*Executor, error) {
	out := make([]*Executor, len(plan.Ops))
	for i, op := range plan.Ops {
		if op.Kind == workload.Transaction {
			t, err := cl.newTxn(op)
			if err != nil {
				return nil, err
			}
			out[i] = &Executor{op: op, txn: t}
			continue
		}
		co := options.Collection()
		if op.ReadPreference != "" {
			rp, err := ReadPref(op.ReadPreference)
			if err != nil {
				return nil, err
			}
			co.SetReadPreference(rp)
		}
		wc := op.WriteConcern
		if wc == nil {
			wc = cl.conn.WriteConcern
		}
		if w := WriteConcern(op.WriteConcern); w != nil {
			co.SetWriteConcern(w)
		}
		e := &Executor{op: op, coll: cl.c.Database(op.Collection.Database).Collection(op.Collection.Name, co)}
		if wc != nil && op.Kind.Writes() {
			e.wtimeout = wc.Deadline()
		}
		e.buildOptions()
		e.send = e
		if cl.Fast() && fastKind(op.Kind) {
			rp, _ := ReadPref(op.ReadPreference) // checked above when set
			if op.ReadPreference == "" {
				rp = nil
			}
			e.send = newFastOp(cl.low, op, rp, WriteConcern(op.WriteConcern), e.staticProjection, e.staticSort)
		}
		out[i] = e
	}
	return out, nil
}

// buildOptions prepares the options that do not change between calls,
// and the public API's path (Executors may choose the lower layer).
func (e *Executor) buildOptions() {
	e.send = e
	op := e.op
	e.find = options.Find()
	if op.Limit > 0 {
		e.find.SetLimit(op.Limit)
	}
	e.findOne = options.FindOne()
	e.fau = options.FindOneAndUpdate().SetReturnDocument(options.After)
	e.update = options.UpdateOne().SetUpsert(op.Upsert)
	e.updMany = options.UpdateMany().SetUpsert(op.Upsert)
	e.replace = options.Replace().SetUpsert(op.Upsert)
	e.count = options.Count()
	if op.Limit > 0 {
		e.count.SetLimit(op.Limit)
	}
	if op.StaticOptions {
		st := generate.NewState(0, 0)
		var projection, sort []byte
		if op.Projection != nil {
			projection = op.Projection.Append(nil, st)
		}
		if op.Sort != nil {
			sort = op.Sort.Append(nil, st)
		}
		e.setProjectionSort(projection, sort)
		e.staticProjection, e.staticSort = projection, sort
	}
}

func (e *Executor) setProjectionSort(projection, sort []byte) {
	if projection != nil {
		e.find.SetProjection(bson.Raw(projection))
		e.findOne.SetProjection(bson.Raw(projection))
		e.fau.SetProjection(bson.Raw(projection))
	}
	if sort != nil {
		e.find.SetSort(bson.Raw(sort))
		e.findOne.SetSort(bson.Raw(sort))
		e.fau.SetSort(bson.Raw(sort))
	}
}

// Do executes a built request and replies with what the server did with
// documents (finding nothing is not an error) and what the command monitor
// saw: when the first command was sent (if sends are tracked,
// ConnectOptions.TrackSends) and how many commands failed.
func (e *Executor) Do(ctx context.Context, r *workload.Request) (workload.Reply, error) {
	t := track(ctx)
	docs, err := e.do(t.ctx, r)
	rep := workload.Reply{Docs: docs, Failed: t.clock.Failures()}
	rep.Sent, _ = t.clock.Sent()
	t.done()
	return rep, err
}

// do executes a built request, its commands marking the send clock ctx
// carries (track); a transaction's steps run through it.
func (e *Executor) do(ctx context.Context, r *workload.Request) (metrics.Docs, error) {
	if e.txn != nil {
		return e.txn.do(ctx, r)
	}
	if e.wtimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, e.wtimeout)
		defer cancel()
	}
	if e.send != path(e) && mongo.SessionFromContext(ctx) != nil {
		// An explicit session (a caller's transaction) is the public
		// API's: the lower layer would run outside it.
		return e.run(ctx, r)
	}
	return e.send.run(ctx, r)
}

// run sends a built request through the public API.
func (e *Executor) run(ctx context.Context, r *workload.Request) (metrics.Docs, error) {
	if !e.op.StaticOptions {
		e = e.withDynamicOptions(r)
	}
	row := rowOf(e.op.Kind)
	filter := bson.Raw(r.Filter)
	switch {
	case row.cursor != nil:
		cur, err := row.cursor(e, ctx, filter, r)
		return drain(ctx, cur, err)
	case row.one != nil:
		return one(row.one(e, ctx, filter, r).Err())
	case row.api != nil:
		return row.api(e, ctx, filter, r)
	}
	return metrics.Docs{}, errors.New("unknown operation kind")
}

// withDynamicOptions copies e with the projection and sort of this request;
// only operations whose projection or sort hold generators pay for it.
func (e *Executor) withDynamicOptions(r *workload.Request) *Executor {
	c := *e
	c.buildOptionsFrom(r)
	return &c
}

func (e *Executor) buildOptionsFrom(r *workload.Request) {
	op := e.op
	e.find = options.Find()
	switch {
	case op.LimitGen != nil:
		e.find.SetLimit(r.Limit)
	case op.Limit > 0:
		e.find.SetLimit(op.Limit)
	}
	e.findOne = options.FindOne()
	e.fau = options.FindOneAndUpdate().SetReturnDocument(options.After)
	e.setProjectionSort(r.Projection, r.Sort)
}

// readModifyWrite reads the document (with the projection, if any), then
// updates it: YCSB's read-modify-write, one operation from the read to the
// update's reply. Finding nothing skips the update, as in YCSB. The read
// and the update are also timed each on its own, as r.StepRuns of the op's
// parts (YCSB's DBWrapper measures them as READ and UPDATE).
func (e *Executor) readModifyWrite(ctx context.Context, filter bson.Raw, r *workload.Request) (metrics.Docs, error) {
	start := time.Now()
	d, err := one(e.coll.FindOne(ctx, filter, e.findOne).Err())
	e.part(r, workload.ReadPart, start, d, err)
	if err != nil || d.Empty != 0 {
		return d, err
	}
	start = time.Now()
	u, err := updated(e.coll.UpdateOne(ctx, filter, bson.Raw(r.Update), e.update))
	e.part(r, workload.UpdatePart, start, u, err)
	u.Returned = d.Returned
	return u, err
}

// part records one timed part of the operation in r.StepRuns.
func (e *Executor) part(r *workload.Request, i int, start time.Time, d metrics.Docs, err error) {
	if len(e.op.Parts) > i {
		r.StepRuns = append(r.StepRuns, workload.StepRun{Op: e.op.Parts[i], Latency: time.Since(start), Err: err, Docs: d})
	}
}

// drain reads every document of the cursor: the time to fetch all batches
// is part of the operation's latency. Next only steps over the raw batch
// (firstBatch, then each nextBatch): no document is decoded to count it.
func drain(ctx context.Context, cur *mongo.Cursor, err error) (metrics.Docs, error) {
	if err != nil {
		return metrics.Docs{}, err
	}
	var n int64
	for cur.Next(ctx) {
		n++
	}
	err = cur.Err()
	_ = cur.Close(context.WithoutCancel(ctx))
	return shaped(metrics.Docs{Returned: n}, n), err
}

// shaped marks d as the result of an operation that can find nothing, and
// as empty when found is 0.
func shaped(d metrics.Docs, found int64) metrics.Docs {
	d.Shaped = 1
	if found == 0 {
		d.Empty = 1
	}
	return d
}

// one is a single-document read's result.
func one(err error) (metrics.Docs, error) {
	if errors.Is(err, mongo.ErrNoDocuments) {
		return shaped(metrics.Docs{}, 0), nil
	}
	if err != nil {
		return metrics.Docs{}, err
	}
	return shaped(metrics.Docs{Returned: 1}, 1), nil
}

func updated(res *mongo.UpdateResult, err error) (metrics.Docs, error) {
	if res == nil {
		return metrics.Docs{}, err
	}
	d := metrics.Docs{Matched: res.MatchedCount, Modified: res.ModifiedCount, Upserted: res.UpsertedCount}
	return shaped(d, res.MatchedCount+res.UpsertedCount), err
}

func deleted(res *mongo.DeleteResult, err error) (metrics.Docs, error) {
	if res == nil {
		return metrics.Docs{}, err
	}
	return shaped(metrics.Docs{Deleted: res.DeletedCount}, res.DeletedCount), err
}
