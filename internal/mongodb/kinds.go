package mongodb

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/workload"
)

// kindRow is what every path does with one operation kind. The public
// API's path (Executor.run), the path that keeps the documents read
// (Executor.Outcome, ab's verification), the driver's lower layer (fastOp,
// --driver-path fast) and a batched transaction (txn.runBatched) read
// their kind's row of kinds, so a kind is added or changed in one place.
type kindRow struct {
	// A read names how the public API asks: for a cursor (find,
	// aggregate) or for one document (findOne, findOneAndUpdate). The API
	// path counts what it returns; Outcome keeps it.
	cursor func(e *Executor, ctx context.Context, filter bson.Raw, r *workload.Request) (*mongo.Cursor, error)
	one    func(e *Executor, ctx context.Context, filter bson.Raw, r *workload.Request) *mongo.SingleResult
	// api sends any other kind through the public API; its counts are its
	// whole result, kept documents included.
	api func(e *Executor, ctx context.Context, filter bson.Raw, r *workload.Request) (metrics.Docs, error)
	// fast is the command the lower layer sends (fastcmd.go); nil keeps
	// the kind on the public API.
	fast *fastRow
	// model is the kind as one write of a client bulkWrite; nil for the
	// kinds a batched transaction sends on their own (reads).
	model func(op *workload.Op, r *workload.Request) mongo.ClientWriteModel
}

// kinds has one row per operation kind. A transaction has none: its steps
// are rows of their own (txn.go).
var kinds = [...]kindRow{
	workload.Find: {
		cursor: func(e *Executor, ctx context.Context, filter bson.Raw, _ *workload.Request) (*mongo.Cursor, error) {
			return e.coll.Find(ctx, filter, e.find)
		},
		fast: &fastRow{name: "find", fields: findFields, response: cursorResponse},
	},
	workload.FindOne: {
		one: func(e *Executor, ctx context.Context, filter bson.Raw, _ *workload.Request) *mongo.SingleResult {
			return e.coll.FindOne(ctx, filter, e.findOne)
		},
		fast: &fastRow{name: "find", fields: findOneFields, response: cursorResponse},
	},
	workload.InsertOne: {
		api: func(e *Executor, ctx context.Context, _ bson.Raw, r *workload.Request) (metrics.Docs, error) {
			_, err := e.coll.InsertOne(ctx, bson.Raw(r.Docs[0]))
			return metrics.Docs{Inserted: 1}, err
		},
		fast: &fastRow{name: "insert", batch: "documents", statement: insertStatement, inserts: true},
		model: func(_ *workload.Op, r *workload.Request) mongo.ClientWriteModel {
			return &mongo.ClientInsertOneModel{Document: bson.Raw(r.Docs[0])}
		},
	},
	workload.InsertMany: {
		api: func(e *Executor, ctx context.Context, _ bson.Raw, r *workload.Request) (metrics.Docs, error) {
			var d metrics.Docs
			res, err := e.coll.InsertMany(ctx, r.Docs)
			if res != nil {
				d.Inserted = int64(len(res.InsertedIDs))
			}
			return d, err
		},
	},
	workload.UpdateOne: {
		api: func(e *Executor, ctx context.Context, filter bson.Raw, r *workload.Request) (metrics.Docs, error) {
			return updated(e.coll.UpdateOne(ctx, filter, bson.Raw(r.Update), e.update))
		},
		fast: &fastRow{name: "update", batch: "updates", statement: updateStatement, response: updateResponse},
		model: func(op *workload.Op, r *workload.Request) mongo.ClientWriteModel {
			return &mongo.ClientUpdateOneModel{Filter: bson.Raw(r.Filter), Update: bson.Raw(r.Update), Upsert: &op.Upsert}
		},
	},
	workload.UpdateMany: {
		api: func(e *Executor, ctx context.Context, filter bson.Raw, r *workload.Request) (metrics.Docs, error) {
			return updated(e.coll.UpdateMany(ctx, filter, bson.Raw(r.Update), e.updMany))
		},
		fast: &fastRow{name: "update", batch: "updates", statement: updateStatement, response: updateResponse, many: true},
		model: func(op *workload.Op, r *workload.Request) mongo.ClientWriteModel {
			return &mongo.ClientUpdateManyModel{Filter: bson.Raw(r.Filter), Update: bson.Raw(r.Update), Upsert: &op.Upsert}
		},
	},
	workload.ReplaceOne: {
		api: func(e *Executor, ctx context.Context, filter bson.Raw, r *workload.Request) (metrics.Docs, error) {
			return updated(e.coll.ReplaceOne(ctx, filter, bson.Raw(r.Docs[0]), e.replace))
		},
		fast: &fastRow{name: "update", batch: "updates", statement: replaceStatement, response: updateResponse},
		model: func(op *workload.Op, r *workload.Request) mongo.ClientWriteModel {
			return &mongo.ClientReplaceOneModel{Filter: bson.Raw(r.Filter), Replacement: bson.Raw(r.Docs[0]), Upsert: &op.Upsert}
		},
	},
	workload.DeleteOne: {
		api: func(e *Executor, ctx context.Context, filter bson.Raw, _ *workload.Request) (metrics.Docs, error) {
			return deleted(e.coll.DeleteOne(ctx, filter))
		},
		fast: &fastRow{name: "delete", batch: "deletes", statement: deleteStatement, response: deleteResponse},
		model: func(_ *workload.Op, r *workload.Request) mongo.ClientWriteModel {
			return &mongo.ClientDeleteOneModel{Filter: bson.Raw(r.Filter)}
		},
	},
	workload.DeleteMany: {
		api: func(e *Executor, ctx context.Context, filter bson.Raw, _ *workload.Request) (metrics.Docs, error) {
			return deleted(e.coll.DeleteMany(ctx, filter))
		},
		fast: &fastRow{name: "delete", batch: "deletes", statement: deleteStatement, response: deleteResponse, many: true},
		model: func(_ *workload.Op, r *workload.Request) mongo.ClientWriteModel {
			return &mongo.ClientDeleteManyModel{Filter: bson.Raw(r.Filter)}
		},
	},
	workload.FindOneAndUpdate: {
		one: func(e *Executor, ctx context.Context, filter bson.Raw, r *workload.Request) *mongo.SingleResult {
			return e.coll.FindOneAndUpdate(ctx, filter, bson.Raw(r.Update), e.fau)
		},
	},
	workload.Aggregate: {
		cursor: func(e *Executor, ctx context.Context, _ bson.Raw, r *workload.Request) (*mongo.Cursor, error) {
			return e.coll.Aggregate(ctx, bsoncore.Array(r.Pipeline))
		},
	},
	workload.CountDocuments: {
		api: func(e *Executor, ctx context.Context, filter bson.Raw, _ *workload.Request) (metrics.Docs, error) {
			n, err := e.coll.CountDocuments(ctx, filter, e.count)
			return shaped(metrics.Docs{Matched: n}, n), err
		},
	},
	workload.ReadModifyWrite: {
		api: func(e *Executor, ctx context.Context, filter bson.Raw, r *workload.Request) (metrics.Docs, error) {
			return e.readModifyWrite(ctx, filter, r)
		},
	},
	workload.Replay: {
		api: func(e *Executor, ctx context.Context, _ bson.Raw, r *workload.Request) (metrics.Docs, error) {
			return e.replay(ctx, bson.Raw(r.Command))
		},
	},
}

// rowOf is kind k's row; an unknown kind's is empty (no path sends it).
func rowOf(k workload.Kind) *kindRow {
	if int(k) < len(kinds) {
		return &kinds[k]
	}
	return &kindRow{}
}

// fastKind reports whether the lower layer sends kind k; the others keep
// the public API.
func fastKind(k workload.Kind) bool { return rowOf(k).fast != nil }
