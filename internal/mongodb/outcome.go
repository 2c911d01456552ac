package mongodb

import (
	"context"
	"errors"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/workload"
)

// Outcome is what one operation returned, kept whole so that two
// deployments' answers can be compared (mongoload ab's verification):
// the documents a read returned, in the order they came, and what the
// server did with documents.
type Outcome struct {
	Docs   []bson.Raw
	Counts metrics.Docs
}

// Outcome executes a built request as Do does, keeping the documents a
// read returns. Operations that return no documents (writes, counts,
// transactions, read-modify-writes) run through Do: their counts are
// their result.
func (e *Executor) Outcome(ctx context.Context, r *workload.Request) (Outcome, error) {
	if e.op.Kind == workload.Replay {
		return e.replayOutcome(ctx, bson.Raw(r.Command))
	}
	if e.txn != nil {
		rep, err := e.Do(ctx, r)
		return Outcome{Counts: rep.Docs}, err
	}
	x := e
	if !e.op.StaticOptions {
		x = e.withDynamicOptions(r)
	}
	row := rowOf(e.op.Kind)
	filter := bson.Raw(r.Filter)
	switch {
	case row.cursor != nil:
		cur, err := row.cursor(x, ctx, filter, r)
		return collect(ctx, cur, err)
	case row.one != nil:
		return single(row.one(x, ctx, filter, r).Raw())
	}
	rep, err := e.Do(ctx, r)
	return Outcome{Counts: rep.Docs}, err
}

// collect reads every document of the cursor, copied out of its batch.
func collect(ctx context.Context, cur *mongo.Cursor, err error) (Outcome, error) {
	if err != nil {
		return Outcome{}, err
	}
	defer cur.Close(context.WithoutCancel(ctx))
	var out Outcome
	for cur.Next(ctx) {
		out.Docs = append(out.Docs, append(bson.Raw(nil), cur.Current...))
	}
	out.Counts = shaped(metrics.Docs{Returned: int64(len(out.Docs))}, int64(len(out.Docs)))
	return out, cur.Err()
}

// single is a one-document read's outcome; finding nothing is not an error.
func single(raw bson.Raw, err error) (Outcome, error) {
	if errors.Is(err, mongo.ErrNoDocuments) {
		return Outcome{Counts: shaped(metrics.Docs{}, 0)}, nil
	}
	if err != nil {
		return Outcome{}, err
	}
	return Outcome{Docs: []bson.Raw{raw}, Counts: shaped(metrics.Docs{Returned: 1}, 1)}, nil
}

// Sample counts database.collection's documents (the count the server
// keeps: counting one by one would scan a production-sized collection) and
// returns its first n in _id order: what two deployments' data are
// compared by before an A/B run.
func (cl *Client) Sample(ctx context.Context, database, collection string, n int) (int64, []bson.Raw, error) {
	c := cl.c.Database(database).Collection(collection)
	count, err := c.EstimatedDocumentCount(ctx)
	if err != nil {
		return 0, nil, err
	}
	cur, err := c.Find(ctx, bson.D{}, options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}).SetLimit(int64(n)))
	if err != nil {
		return count, nil, err
	}
	out, err := collect(ctx, cur, nil)
	return count, out.Docs, err
}
