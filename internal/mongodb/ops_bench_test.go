package mongodb

import (
	"context"
	"fmt"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/generate"
	"github.com/mongoload/mongoload/internal/testserver"
	"github.com/mongoload/mongoload/internal/workload"
)

// opsBenchWorkload has one operation of every kind, on one small collection
// with a unique index on k: every filter finds at most a few documents.
const opsBenchWorkload = `
collections:
  - database: %s
    name: c
    template: {k: {$gen: key}, v: {$gen: int, min: 1, max: 5}, s: {$gen: string, length: 100}}
    indexes:
      - keys: {k: 1}
        unique: true
operations:
  - {name: find, type: find, weight: 1, filter: {k: {$gen: key}}, limit: 5}
  - {name: findOne, type: findOne, weight: 1, filter: {k: {$gen: key}}}
  - {name: insertOne, type: insertOne, weight: 1}
  - {name: insertMany, type: insertMany, weight: 1, batchSize: 10}
  - {name: updateOne, type: updateOne, weight: 1, filter: {k: {$gen: key}}, update: {$set: {s: {$gen: string, length: 100}}}}
  - {name: updateMany, type: updateMany, weight: 1, filter: {k: {$gen: key}}, update: {$inc: {v: 1}}}
  - {name: replaceOne, type: replaceOne, weight: 1, filter: {k: -1}, document: {k: -1, v: 1}, upsert: true}
  - {name: deleteOne, type: deleteOne, weight: 1, filter: {k: -2}}
  - {name: deleteMany, type: deleteMany, weight: 1, filter: {k: -2}}
  - {name: findOneAndUpdate, type: findOneAndUpdate, weight: 1, filter: {k: {$gen: key}}, update: {$inc: {v: 1}}}
  - {name: aggregate, type: aggregate, weight: 1, pipeline: [{$match: {k: {$gen: key}}}, {$project: {v: 1}}]}
  - {name: countDocuments, type: countDocuments, weight: 1, filter: {k: {$gen: key}}}
  - {name: readModifyWrite, type: readModifyWrite, weight: 1, filter: {k: {$gen: key}}, update: {$set: {v: 2}}}
`

// BenchmarkOperations reports what one operation of each kind costs through
// the real driver against the test server: mongoload's executor (Do, as a
// worker calls it; /mongoload through the public API, /fast through the
// driver's lower layer) beside the bare driver call it makes, from the same built
// request (raw BSON, prebuilt options, no decoding). allocs/op and B/op of
// mongoload minus those of the driver are mongoload's own; the rest is the
// driver's (docs/performance.md):
//
//	go test -run '^$' -bench Operations -benchmem ./internal/mongodb
func BenchmarkOperations(b *testing.B) {
	uri := testserver.URI(b)
	db := fmt.Sprintf("mlbench_%d", time.Now().UnixNano())
	plan := compile(b, fmt.Sprintf(opsBenchWorkload, db))
	ctx := context.Background()
	cl, err := Connect(ctx, config.Connection{URI: uri, DriverPath: config.DriverPathAPI}, ConnectOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cl.c.Database(db).Drop(ctx); cl.Close() })
	fast, err := Connect(ctx, config.Connection{URI: uri, DriverPath: config.DriverPathFast}, ConnectOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(fast.Close)
	if _, err := cl.Prepare(ctx, plan, SetupOptions{Create: true}); err != nil {
		b.Fatal(err)
	}
	execs, err := cl.Executors(plan)
	if err != nil {
		b.Fatal(err)
	}
	fastExecs, err := fast.Executors(plan)
	if err != nil {
		b.Fatal(err)
	}
	// 1,000 documents for the reads and updates to find.
	st := generate.NewState(1, 1)
	var req workload.Request
	insertMany := plan.Ops[3]
	for range 100 {
		req.Build(insertMany, st)
		if _, err := execs[3].Do(ctx, &req); err != nil {
			b.Fatal(err)
		}
		req.Release()
	}
	for i, op := range plan.Ops {
		b.Run(op.Name+"/mongoload", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				req.Build(op, st)
				if _, err := execs[i].Do(ctx, &req); err != nil {
					b.Fatal(err)
				}
				req.Release()
			}
		})
		if fastKind(op.Kind) {
			b.Run(op.Name+"/fast", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					req.Build(op, st)
					if _, err := fastExecs[i].Do(ctx, &req); err != nil {
						b.Fatal(err)
					}
					req.Release()
				}
			})
		}
		b.Run(op.Name+"/driver", func(b *testing.B) {
			call := bareCall(execs[i].coll, op)
			b.ReportAllocs()
			for b.Loop() {
				req.Build(op, st)
				if err := call(ctx, &req); err != nil {
					b.Fatal(err)
				}
				req.Release()
			}
		})
	}
}

// bareCall is the cheapest driver call for op: raw BSON in, nothing
// decoded out, options built once, cursors drained and closed.
func bareCall(c *mongo.Collection, op *workload.Op) func(context.Context, *workload.Request) error {
	drainErr := func(cur *mongo.Cursor, err error) error {
		if err != nil {
			return err
		}
		for cur.Next(context.Background()) {
		}
		return cur.Close(context.Background())
	}
	found := func(err error) error {
		if err == mongo.ErrNoDocuments {
			return nil
		}
		return err
	}
	find := options.Find().SetLimit(op.Limit)
	replace := options.Replace().SetUpsert(op.Upsert)
	fau := options.FindOneAndUpdate().SetReturnDocument(options.After)
	switch op.Kind {
	case workload.Find:
		return func(ctx context.Context, r *workload.Request) error {
			return drainErr(c.Find(ctx, bson.Raw(r.Filter), find))
		}
	case workload.FindOne:
		return func(ctx context.Context, r *workload.Request) error {
			return found(c.FindOne(ctx, bson.Raw(r.Filter)).Err())
		}
	case workload.InsertOne:
		return func(ctx context.Context, r *workload.Request) error {
			_, err := c.InsertOne(ctx, bson.Raw(r.Docs[0]))
			return err
		}
	case workload.InsertMany:
		return func(ctx context.Context, r *workload.Request) error { _, err := c.InsertMany(ctx, r.Docs); return err }
	case workload.UpdateOne:
		return func(ctx context.Context, r *workload.Request) error {
			_, err := c.UpdateOne(ctx, bson.Raw(r.Filter), bson.Raw(r.Update))
			return err
		}
	case workload.UpdateMany:
		return func(ctx context.Context, r *workload.Request) error {
			_, err := c.UpdateMany(ctx, bson.Raw(r.Filter), bson.Raw(r.Update))
			return err
		}
	case workload.ReplaceOne:
		return func(ctx context.Context, r *workload.Request) error {
			_, err := c.ReplaceOne(ctx, bson.Raw(r.Filter), bson.Raw(r.Docs[0]), replace)
			return err
		}
	case workload.DeleteOne:
		return func(ctx context.Context, r *workload.Request) error {
			_, err := c.DeleteOne(ctx, bson.Raw(r.Filter))
			return err
		}
	case workload.DeleteMany:
		return func(ctx context.Context, r *workload.Request) error {
			_, err := c.DeleteMany(ctx, bson.Raw(r.Filter))
			return err
		}
	case workload.FindOneAndUpdate:
		return func(ctx context.Context, r *workload.Request) error {
			return found(c.FindOneAndUpdate(ctx, bson.Raw(r.Filter), bson.Raw(r.Update), fau).Err())
		}
	case workload.Aggregate:
		return func(ctx context.Context, r *workload.Request) error {
			return drainErr(c.Aggregate(ctx, bsoncore.Array(r.Pipeline)))
		}
	case workload.CountDocuments:
		return func(ctx context.Context, r *workload.Request) error {
			_, err := c.CountDocuments(ctx, bson.Raw(r.Filter))
			return err
		}
	case workload.ReadModifyWrite:
		return func(ctx context.Context, r *workload.Request) error {
			if err := c.FindOne(ctx, bson.Raw(r.Filter)).Err(); err != nil {
				return found(err)
			}
			_, err := c.UpdateOne(ctx, bson.Raw(r.Filter), bson.Raw(r.Update))
			return err
		}
	}
	panic("bareCall: no bare call for " + op.Type)
}
