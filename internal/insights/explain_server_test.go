package insights

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/testserver"
	"github.com/mongoload/mongoload/internal/workload"
)

// TestExplainEveryKindOnTheServer: every kind of operation is explained
// on the real server in the form explain takes (the aggregate's pipeline
// as an array of stages, counts as the driver's aggregate, updates,
// deletes and findAndModify as their commands): with {org: 1} each plan
// reads that index, without it each scans the collection; an insert says
// why it has none; and explaining changes no document.
func TestExplainEveryKindOnTheServer(t *testing.T) {
	ctx := context.Background()
	cl, err := mongodb.Connect(ctx, config.Connection{URI: testserver.URI(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	db := fmt.Sprintf("ml_explain_%d", time.Now().UnixNano()%1e6)
	run := func(cmd bson.D) bson.Raw {
		t.Helper()
		raw, err := cl.Command(ctx, db, cmd)
		if err != nil {
			t.Fatal(err)
		}
		return raw
	}
	defer run(bson.D{{Key: "dropDatabase", Value: 1}})
	var docs bson.A
	for i := range 300 {
		docs = append(docs, bson.D{{Key: "_id", Value: i}, {Key: "org", Value: fmt.Sprintf("o%02d", i%30)}, {Key: "qty", Value: i}})
	}
	run(bson.D{{Key: "insert", Value: "items"}, {Key: "documents", Value: docs}})
	index := func(create bool) {
		if create {
			run(bson.D{{Key: "createIndexes", Value: "items"}, {Key: "indexes", Value: bson.A{bson.D{{Key: "key", Value: bson.D{{Key: "org", Value: 1}}}, {Key: "name", Value: "org_1"}}}}})
		} else {
			run(bson.D{{Key: "dropIndexes", Value: "items"}, {Key: "index", Value: "org_1"}})
		}
	}
	marshal := func(v any) bson.Raw {
		b, err := bson.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	filter := marshal(bson.D{{Key: "org", Value: "o07"}})
	pipeline := marshal(bson.D{
		{Key: "0", Value: bson.D{{Key: "$match", Value: bson.D{{Key: "org", Value: "o07"}}}}},
		{Key: "1", Value: bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: "$qty"}, {Key: "n", Value: bson.D{{Key: "$sum", Value: 1}}}}}}},
		{Key: "2", Value: bson.D{{Key: "$sort", Value: bson.D{{Key: "_id", Value: 1}}}}},
		{Key: "3", Value: bson.D{{Key: "$limit", Value: 5}}},
	})
	inc := marshal(bson.D{{Key: "$inc", Value: bson.D{{Key: "qty", Value: 1000}}}})
	ns := db + ".items"
	samples := []Sample{
		{Kind: workload.Find, Filter: filter, Sort: marshal(bson.D{{Key: "qty", Value: 1}}), Limit: 5},
		{Kind: workload.FindOne, Filter: filter},
		{Kind: workload.Aggregate, Filter: pipeline},
		{Kind: workload.CountDocuments, Filter: filter},
		{Kind: workload.CountDocuments, Filter: filter, Limit: 3},
		{Kind: workload.UpdateOne, Filter: filter, Update: inc},
		{Kind: workload.UpdateMany, Filter: filter, Update: inc, Upsert: true},
		{Kind: workload.ReplaceOne, Filter: filter, Update: marshal(bson.D{{Key: "org", Value: "gone"}})},
		{Kind: workload.DeleteOne, Filter: filter},
		{Kind: workload.DeleteMany, Filter: filter},
		{Kind: workload.FindOneAndUpdate, Filter: filter, Update: inc, Sort: marshal(bson.D{{Key: "qty", Value: -1}})},
		{Kind: workload.ReadModifyWrite, Filter: filter, Update: inc},
	}
	as := []string{"find", "find", "aggregate", "aggregate", "aggregate", "update", "update", "update", "delete", "delete", "findAndModify", "find"}
	for i := range samples {
		samples[i].Namespace = ns
	}
	before := run(bson.D{{Key: "find", Value: "items"}, {Key: "sort", Value: bson.D{{Key: "_id", Value: 1}}}, {Key: "batchSize", Value: 1000}})
	for _, indexed := range []bool{true, false} {
		index(indexed)
		for i, e := range Explain(ctx, cl, samples) {
			what := fmt.Sprintf("%v (indexed %v)", samples[i].Kind, indexed)
			switch {
			case e.Error != "":
				t.Errorf("%s: %s", what, e.Error)
			case e.As != as[i]:
				t.Errorf("%s: explained as %q, want %q", what, e.As, as[i])
			case indexed && !strings.Contains(e.Summary, "org: 1"):
				t.Errorf("%s: plan %s (%s), want it to read {org: 1}", what, e.Plan, e.Summary)
			case !indexed && !e.CollScan:
				t.Errorf("%s: plan %s without the index, want COLLSCAN", what, e.Plan)
			}
			t.Logf("%s: %s: %s", what, e.As, e.Plan)
		}
	}
	if e := Explain(ctx, cl, []Sample{{Namespace: ns, Kind: workload.InsertOne, Filter: bson.Raw{5, 0, 0, 0, 0}}})[0]; !strings.Contains(e.Error, "insert") || e.Plan != "" {
		t.Errorf("an insert's explain: %+v, want why it has no plan", e)
	}
	after := run(bson.D{{Key: "find", Value: "items"}, {Key: "sort", Value: bson.D{{Key: "_id", Value: 1}}}, {Key: "batchSize", Value: 1000}})
	if a, b := before.Lookup("cursor", "firstBatch").String(), after.Lookup("cursor", "firstBatch").String(); a != b || !strings.Contains(a, "o07") {
		t.Errorf("explaining changed the documents:\nbefore %.300s\nafter  %.300s", a, b)
	}
}
