package mongodb

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/testserver"
)

// TestHistoryCollection: a history document goes in as plain JSON, its key
// order kept and a result's "$regex" filter kept as a field (not read as
// extended JSON's regular expression), its time a date; the indexes asked
// for exist; FindJSON finds by a flattened metric and a date range, in
// time order.
func TestHistoryCollection(t *testing.T) {
	ctx := context.Background()
	db := fmt.Sprintf("mltest_history_%d", time.Now().UnixNano())
	h, err := OpenHistory(ctx, testserver.URI(t), db, "results")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.coll.Database().Drop(context.Background()); h.Close() })
	if err := h.EnsureIndexes(ctx, [][]string{{"workload", "time"}, {"label"}}); err != nil {
		t.Fatal(err)
	}
	for i, tput := range []float64{2000, 1700.5, 1990} {
		doc := fmt.Sprintf(`{"workload":"w","time":"2026-11-0%dT02:00:00Z","metrics":{"throughput":%g},"result":{"schema":"s","config":{"filter":{"name":{"$regex":"^a","$options":"i"}}},"n":%d}}`, 3-i, tput, i)
		if err := h.InsertJSON(ctx, []byte(doc), "time"); err != nil {
			t.Fatal(err)
		}
	}
	var raw bson.D
	if err := h.coll.FindOne(ctx, bson.D{{Key: "result.n", Value: 0}}).Decode(&raw); err != nil {
		t.Fatal(err)
	}
	if _, ok := field(raw, "time").(bson.DateTime); !ok {
		t.Errorf("time stored as %T, want a date", field(raw, "time"))
	}
	filter := field(field(field(field(raw, "result"), "config"), "filter"), "name")
	if d, ok := filter.(bson.D); !ok || len(d) != 2 || d[0].Key != "$regex" || d[0].Value != "^a" {
		t.Errorf("a result's $regex filter stored as %#v, want the fields as written", filter)
	}
	if keys := []string{raw[1].Key, raw[2].Key, raw[3].Key}; !slices.Equal(keys, []string{"workload", "time", "metrics"}) {
		t.Errorf("keys in order %v", keys)
	}
	specs, err := h.coll.Indexes().ListSpecifications(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range specs {
		names = append(names, s.Name)
	}
	if !slices.Contains(names, "workload_1_time_1") || !slices.Contains(names, "label_1") {
		t.Errorf("indexes %v, want workload_1_time_1 and label_1", names)
	}
	docs, err := h.FindJSON(ctx, []byte(`{"metrics.throughput": {"$gt": 1800}, "time": {"$gte": {"$date": "2026-11-01T00:00:00Z"}}}`), "time")
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 2 || !strings.Contains(string(docs[0]), `"throughput":1990`) || !strings.Contains(string(docs[1]), `"throughput":2000`) {
		t.Errorf("found %d documents by throughput and time, in time order: %s", len(docs), docs)
	}
}

// field is d's value at key (d a bson.D), nil when there is none.
func field(d any, key string) any {
	doc, _ := d.(bson.D)
	for _, e := range doc {
		if e.Key == key {
			return e.Value
		}
	}
	return nil
}
