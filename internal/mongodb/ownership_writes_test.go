package mongodb

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/workload"
)

// writingOperations is every operation type and option that can change a
// collection, each as one workload operation on collection c (which
// pipelines may not write into: their targets are {out} and {outdb}).
var writingOperations = []struct{ name, op string }{
	{"insertOne", `{type: insertOne}`},
	{"insertMany (a bulk write)", `{type: insertMany, batchSize: 10}`},
	{"updateOne", `{type: updateOne, filter: {k: 1}, update: {$set: {v: 2}}}`},
	{"updateOne with upsert", `{type: updateOne, filter: {k: 1}, update: {$set: {v: 2}}, upsert: true}`},
	{"upsert", `{type: upsert, filter: {k: 1}, update: {$set: {v: 2}}}`},
	{"updateMany", `{type: updateMany, filter: {}, update: {$inc: {v: 1}}}`},
	{"replaceOne", `{type: replaceOne, filter: {k: 1}}`},
	{"replaceOne with upsert", `{type: replaceOne, filter: {k: 1}, upsert: true}`},
	{"deleteOne", `{type: deleteOne, filter: {k: 1}}`},
	{"deleteMany", `{type: deleteMany, filter: {v: 1}}`},
	{"findOneAndUpdate (findAndModify)", `{type: findOneAndUpdate, filter: {k: 1}, update: {$set: {v: 2}}}`},
	{"findOneAndUpdate with upsert", `{type: findOneAndUpdate, filter: {k: 1}, update: {$set: {v: 2}}, upsert: true}`},
	{"readModifyWrite", `{type: readModifyWrite, filter: {k: 1}, update: {$set: {v: 2}}}`},
	{"transaction, one command per step", `{type: transaction, styles: [perOperation], steps: [{name: s, type: insertOne, collection: c}]}`},
	{"transaction as one bulkWrite", `{type: transaction, styles: [batched], steps: [{name: s, type: updateOne, collection: c, filter: {k: 1}, update: {$set: {v: 2}}}]}`},
	{"aggregate $out", `{type: aggregate, pipeline: [{$match: {}}, {$out: {out}}]}`},
	{"aggregate $out to another database", `{type: aggregate, pipeline: [{$out: {db: {outdb}, coll: {out}}}]}`},
	{"aggregate $merge", `{type: aggregate, pipeline: [{$merge: {out}}]}`},
	{"aggregate $merge into", `{type: aggregate, pipeline: [{$merge: {into: {out}, whenMatched: replace}}]}`},
	{"aggregate $merge into another database", `{type: aggregate, pipeline: [{$merge: {into: {db: {outdb}, coll: {out}}}}]}`},
	{"aggregate $out in a transaction step", `{type: transaction, steps: [{name: s, type: aggregate, collection: c, pipeline: [{$out: {out}}]}]}`},
}

// TestEveryWriteIsRefusedOnAForeignCollection: the ownership rule is the
// one door of every write. For each operation that can write, against a
// collection mongoload did not create (the workload's own, or the one its
// pipeline names, in the same database or another): setup refuses before
// it changes anything (no collection created, no mark, the foreign one as
// it was); --allow-existing lets it through. Oracle: the server's own
// listing and count. Before, pipelines' $out/$merge were not writes.
func TestEveryWriteIsRefusedOnAForeignCollection(t *testing.T) {
	cl := connectTest(t)
	ctx := context.Background()
	for i, w := range writingOperations {
		t.Run(w.name, func(t *testing.T) {
			db := fmt.Sprintf("mlown_%d_%d", time.Now().UnixNano(), i)
			outdb := db + "_other"
			op := strings.NewReplacer("{outdb}", outdb, "{out}", "foreign").Replace(w.op)
			pipeline := strings.Contains(w.op, "{out}")
			foreignDB, foreign := db, "c" // the workload's own collection is someone else's
			if pipeline {
				foreign = "foreign"
				if strings.Contains(w.op, "{outdb}") {
					foreignDB = outdb
				}
			}
			p := writingPlan(t, db, op)
			if _, err := cl.c.Database(foreignDB).Collection(foreign).InsertOne(ctx, bson.D{{Key: "k", Value: 1}, {Key: "theirs", Value: true}}); err != nil {
				t.Fatal(err)
			}
			_, err := cl.Prepare(ctx, p, SetupOptions{Create: true})
			if !errors.Is(err, ErrNotOurs) || !strings.Contains(err.Error(), foreignDB+"."+foreign) || !strings.Contains(err.Error(), "--allow-existing") {
				t.Fatalf("a write into %s.%s, not created by mongoload: %v, want a refusal naming it", foreignDB, foreign, err)
			}
			if pipeline && !strings.Contains(err.Error(), "through $") {
				t.Errorf("the refusal does not name the pipeline stage: %v", err)
			}
			for _, d := range []string{db, outdb} {
				names, _ := cl.c.Database(d).ListCollectionNames(ctx, bson.D{})
				names = slices.DeleteFunc(names, func(n string) bool { return d == foreignDB && n == foreign })
				if len(names) > 0 {
					t.Errorf("setup changed %s before refusing: it now holds %v", d, names)
				}
			}
			if n, _ := cl.c.Database(foreignDB).Collection(foreign).CountDocuments(ctx, bson.D{}); n != 1 {
				t.Errorf("%s.%s holds %d documents, want its 1", foreignDB, foreign, n)
			}
			if _, err := cl.Prepare(ctx, p, SetupOptions{Create: true, AllowExisting: true}); err != nil {
				t.Errorf("--allow-existing: %v", err)
			}
		})
	}
}

// writingPlan compiles a workload of collection c in db with one operation.
func writingPlan(t *testing.T, db, op string) *workload.Plan {
	t.Helper()
	return compile(t, fmt.Sprintf("collections:\n  - {database: %s, name: c, template: {k: {$gen: key}, v: 1}}\noperations:\n  - %s\n", db, strings.Replace(op, "{type:", "{name: w, weight: 1, type:", 1)))
}
