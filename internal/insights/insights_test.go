package insights

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/workload"
)

func raw(t testing.TB, ext string) bson.Raw {
	t.Helper()
	var r bson.Raw
	if err := bson.UnmarshalExtJSON([]byte(ext), false, &r); err != nil {
		t.Fatalf("%v: %s", err, ext)
	}
	return r
}

// plan is a tiny compiled workload: one collection and its operations.
func plan(t *testing.T) map[string]*workload.Op {
	t.Helper()
	col := &workload.Collection{Database: "airline", Name: "flights"}
	return map[string]*workload.Op{
		"find":   {Name: "find_flight", Type: "findOne", Kind: workload.FindOne, Collection: col},
		"scan":   {Name: "by_gate", Type: "find", Kind: workload.Find, Collection: col, Limit: 10},
		"agg":    {Name: "by_destination", Type: "aggregate", Kind: workload.Aggregate, Collection: col},
		"txn":    {Name: "transfer", Type: "transaction", Kind: workload.Transaction},
		"update": {Name: "book_seat", Type: "updateOne", Kind: workload.UpdateOne, Collection: col},
	}
}

// TestRecorder: shapes are grouped, counted, ordered slowest first, bounded
// with an "other" bucket, and a sample is kept for explain.
func TestRecorder(t *testing.T) {
	ops := plan(t)
	r := NewRecorder(Options{Threshold: 100 * time.Millisecond, MaxShapes: 3})
	obs := func(op *workload.Op, ms int, filter string, err error) {
		req := &workload.Request{Op: op}
		if op.Kind == workload.Aggregate {
			req.Pipeline = raw(t, `{"p": `+filter+`}`).Lookup("p").Array()
		} else if filter != "" {
			req.Filter = raw(t, filter)
		}
		r.Observe(op, time.Duration(ms)*time.Millisecond, req, err)
	}
	for i := range 5 {
		obs(ops["find"], 150+i, `{"flight_id": {"$numberLong": "`+string(rune('1'+i))+`"}}`, nil)
	}
	obs(ops["find"], 120, `{"flight_id": {"$numberLong": "9"}}`, errors.New("timeout"))
	obs(ops["scan"], 900, `{"gate": "A12"}`, nil)
	obs(ops["scan"], 1100, `{"gate": "B07"}`, nil)
	obs(ops["agg"], 300, `[{"$match": {"x": {"$numberInt": "1"}}}]`, nil)
	obs(ops["txn"], 400, "", nil)                                       // a fourth shape: over the bound
	obs(ops["update"], 500, `{"flight_id": {"$numberLong": "1"}}`, nil) // a fifth
	r.Close()
	res := r.Result()
	if res.Operations != 11 || res.Dropped != 0 || res.ThresholdMs != 100 || len(res.Shapes) != 3 {
		t.Fatalf("%d operations, %d dropped, threshold %v, %d shapes", res.Operations, res.Dropped, res.ThresholdMs, len(res.Shapes))
	}
	first := res.Shapes[0]
	if first.Shape != "{gate: <string>}" || first.Count != 2 || first.Ops[0] != "by_gate" || first.Namespace != "airline.flights" || first.Latency.Max < 1099 {
		t.Errorf("slowest shape: %+v", first)
	}
	if find := res.Shapes[2]; find.Shape != "{flight_id: <int64>}" || find.Count != 5 || find.Errors != 1 || find.Histogram == "" || !strings.Contains(find.Sample, `"flight_id"`) {
		t.Errorf("find shape: %+v", find)
	}
	if o := res.Other; o == nil || o.Count != 2 || len(o.Ops) != 2 {
		t.Errorf("other: %+v", o)
	}
	samples := r.Samples(2)
	if len(samples) != 2 || samples[0].Shape != "{gate: <string>}" || samples[0].Limit != 10 || samples[1].Kind != workload.Aggregate {
		t.Errorf("samples: %+v", samples)
	}
}

// TestObserveNeverWaits: with nothing shaping, a full queue drops and counts.
func TestObserveNeverWaits(t *testing.T) {
	r := &Recorder{o: Options{Threshold: time.Millisecond, MaxShapes: 1}, ch: make(chan slowOp, 2), done: make(chan struct{}), shapes: map[shapeKey]*shape{}}
	op := plan(t)["find"]
	done := make(chan struct{})
	go func() {
		for range 10 {
			r.Observe(op, time.Second, &workload.Request{Filter: raw(t, `{}`)}, nil)
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Observe waited for the shaping goroutine")
	}
	if r.total.Load() != 10 || r.dropped.Load() != 8 {
		t.Errorf("total %d, dropped %d", r.total.Load(), r.dropped.Load())
	}
}

func fixture(t *testing.T, name string) bson.Raw {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var r bson.Raw
	if err := bson.UnmarshalExtJSON(data, false, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestParseExplain(t *testing.T) {
	tests := []struct {
		name                 string
		reply                func(t *testing.T) bson.Raw
		plan, scan, index    string
		keys, docs, returned int64
		collScan             bool
		docsPerReturned      float64 // 0: nil
	}{
		{
			name: "secantus, find by an indexed field", reply: func(t *testing.T) bson.Raw { return fixture(t, "secantus-explain-ixscan.json") },
			plan: "FETCH > IXSCAN", scan: "IXSCAN", index: "a_1", keys: 1, docs: 1, returned: 1, docsPerReturned: 1,
		},
		{
			name: "secantus, find by an unindexed field: a collection scan", reply: func(t *testing.T) bson.Raw { return fixture(t, "secantus-explain-collscan.json") },
			plan: "LIMIT > COLLSCAN", scan: "COLLSCAN", keys: 0, docs: 70, returned: 10, collScan: true, docsPerReturned: 7,
		},
		{
			name: "secantus, an optimized aggregate (plan at the top)", reply: func(t *testing.T) bson.Raw { return fixture(t, "secantus-explain-aggregate.json") },
			plan: "FETCH > IXSCAN", scan: "IXSCAN", index: "a_1", keys: 1, docs: 1, returned: 1, docsPerReturned: 1,
		},
		{
			name: "mongod, an aggregate whose plan is in its first stage's $cursor",
			reply: func(t *testing.T) bson.Raw {
				return raw(t, `{"stages": [{"$cursor": {"queryPlanner": {"winningPlan": {"stage": "COLLSCAN"}},
					"executionStats": {"nReturned": 5, "totalKeysExamined": 0, "totalDocsExamined": 5000, "executionTimeMillis": 12}}}, {"$group": {}}]}`)
			},
			plan: "COLLSCAN", scan: "COLLSCAN", docs: 5000, returned: 5, collScan: true, docsPerReturned: 1000,
		},
		{
			name: "mongod 7.0 slot-based engine: the plan under queryPlan",
			reply: func(t *testing.T) bson.Raw {
				return raw(t, `{"queryPlanner": {"winningPlan": {"queryPlan": {"stage": "FETCH", "inputStage": {"stage": "IXSCAN", "indexName": "k_1"}}, "slotBasedPlan": {}}},
					"executionStats": {"nReturned": 0, "totalKeysExamined": 0, "totalDocsExamined": 0}}`)
			},
			plan: "FETCH > IXSCAN", scan: "IXSCAN", index: "k_1",
		},
		{
			name: "mongos: one shard scans, the other uses an index",
			reply: func(t *testing.T) bson.Raw {
				return raw(t, `{"queryPlanner": {"winningPlan": {"stage": "SHARD_MERGE", "shards": [
					{"shardName": "a", "winningPlan": {"stage": "SHARDING_FILTER", "inputStage": {"stage": "COLLSCAN"}}},
					{"shardName": "b", "winningPlan": {"stage": "FETCH", "inputStage": {"stage": "IXSCAN", "indexName": "k_1"}}}]}},
					"executionStats": {"nReturned": 2, "totalKeysExamined": 1, "totalDocsExamined": 401}}`)
			},
			plan: "SHARDING_FILTER > COLLSCAN | FETCH > IXSCAN", scan: "COLLSCAN, IXSCAN", index: "k_1", keys: 1, docs: 401, returned: 2, collScan: true, docsPerReturned: 200.5,
		},
		{
			name: "an $or over two indexes",
			reply: func(t *testing.T) bson.Raw {
				return raw(t, `{"queryPlanner": {"winningPlan": {"stage": "SUBPLAN", "inputStage": {"stage": "FETCH", "inputStage": {"stage": "OR", "inputStages": [
					{"stage": "IXSCAN", "indexName": "a_1"}, {"stage": "IXSCAN", "indexName": "b_1"}]}}}}}`)
			},
			plan: "SUBPLAN > FETCH > OR(IXSCAN, IXSCAN)", scan: "IXSCAN", index: "a_1, b_1",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := ParseExplain(tt.reply(t))
			if err != nil {
				t.Fatal(err)
			}
			if e.Plan != tt.plan || e.Scan != tt.scan || e.Index != tt.index || e.CollScan != tt.collScan ||
				e.KeysExamined != tt.keys || e.DocsExamined != tt.docs || e.Returned != tt.returned {
				t.Errorf("got %+v", e)
			}
			switch {
			case tt.docsPerReturned == 0 && e.DocsPerReturned != nil:
				t.Errorf("docs per returned %v, want none (nothing returned)", *e.DocsPerReturned)
			case tt.docsPerReturned != 0 && (e.DocsPerReturned == nil || *e.DocsPerReturned != tt.docsPerReturned):
				t.Errorf("docs per returned %v, want %v", e.DocsPerReturned, tt.docsPerReturned)
			}
		})
	}
	if _, err := ParseExplain(raw(t, `{"ok": 1}`)); err == nil {
		t.Error("a reply without a plan must be an error")
	}
}

// commander answers explain with a reply, or fails.
type commander struct {
	reply bson.Raw
	err   error
	got   []bson.D
}

func (c *commander) Command(_ context.Context, db string, cmd bson.D) (bson.Raw, error) {
	c.got = append(c.got, cmd)
	return c.reply, c.err
}

func TestExplain(t *testing.T) {
	samples := []Sample{
		{Namespace: "airline.flights", Kind: workload.UpdateOne, Filter: raw(t, `{"k": 1}`)},
		{Namespace: "airline.flights", Kind: workload.Find, Filter: raw(t, `{"g": "x"}`), Sort: raw(t, `{"k": 1}`), Limit: 10},
	}
	c := &commander{reply: fixture(t, "secantus-explain-collscan.json")}
	out := Explain(context.Background(), c, samples)
	if len(out) != 2 || !out[0].CollScan || out[0].As != "update" {
		t.Fatalf("explains: %+v", out)
	}
	want := []string{
		`{"explain": {"update": "flights","updates": [{"q": {"k": {"$numberInt":"1"}},"u": {},"multi": false,"upsert": false}]},"verbosity": "executionStats"}`,
		`{"explain": {"find": "flights","filter": {"g": "x"},"sort": {"k": {"$numberInt":"1"}},"limit": {"$numberLong":"10"}},"verbosity": "executionStats"}`,
	}
	for i, cmd := range c.got {
		b, _ := bson.Marshal(cmd)
		if got := bson.Raw(b).String(); got != want[i] {
			t.Errorf("command %d\n got  %s\n want %s", i, got, want[i])
		}
	}
	failing := &commander{err: errors.New("(Unauthorized) not authorized")}
	if out := Explain(context.Background(), failing, samples[:1]); out[0].Error == "" || out[0].CollScan {
		t.Errorf("a refused explain: %+v", out[0])
	}
}

// TestSlowLatencyRoundedLikeTheRun: a slow operation's latency goes into
// its shape's histogram as the run's histograms record it, to the nearest
// microsecond (metrics.Micros): 1.6 µs is 2 µs, 1.4 µs is 1 µs.
func TestSlowLatencyRoundedLikeTheRun(t *testing.T) {
	ops := plan(t)
	for _, tt := range []struct {
		latency time.Duration
		wantMs  float64
	}{
		{1600 * time.Nanosecond, 0.002},
		{1400 * time.Nanosecond, 0.001},
	} {
		r := NewRecorder(Options{Threshold: time.Microsecond, MaxShapes: 3})
		r.Observe(ops["txn"], tt.latency, &workload.Request{Op: ops["txn"]}, nil)
		r.Close()
		res := r.Result()
		if len(res.Shapes) != 1 || res.Shapes[0].Latency.Max != tt.wantMs {
			t.Errorf("%v: shapes %+v, want max %v ms", tt.latency, res.Shapes, tt.wantMs)
		}
	}
}

// TestExplainSummary: the plan as planSummary writes it, each leaf with
// its key pattern, which is what ab compares between two deployments.
func TestExplainSummary(t *testing.T) {
	for _, c := range []struct{ name, reply, want string }{
		{"an index", `{"queryPlanner": {"winningPlan": {"stage": "FETCH", "inputStage": {"stage": "IXSCAN", "keyPattern": {"org": 1}, "indexName": "org_1"}}}}`, "IXSCAN { org: 1 }"},
		{"a compound, descending", `{"queryPlanner": {"winningPlan": {"stage": "IXSCAN", "keyPattern": {"org": 1, "_id": {"$numberLong": "-1"}}}}}`, "IXSCAN { org: 1, _id: -1 }"},
		{"a text index", `{"queryPlanner": {"winningPlan": {"stage": "TEXT_MATCH", "inputStage": {"stage": "IXSCAN", "keyPattern": {"_fts": "text", "_ftsx": 1}}}}}`, `IXSCAN { _fts: "text", _ftsx: 1 }`},
		{"a collection scan", `{"queryPlanner": {"winningPlan": {"stage": "LIMIT", "inputStage": {"stage": "COLLSCAN"}}}}`, "COLLSCAN"},
		{"an $or over two indexes", `{"queryPlanner": {"winningPlan": {"stage": "OR", "inputStages": [{"stage": "IXSCAN", "keyPattern": {"a": 1}}, {"stage": "IXSCAN", "keyPattern": {"b": 1}}]}}}`, "IXSCAN { a: 1 }, IXSCAN { b: 1 }"},
	} {
		e, err := ParseExplain(raw(t, c.reply))
		if err != nil || e.Summary != c.want {
			t.Errorf("%s: summary %q (%v), want %q", c.name, e.Summary, err, c.want)
		}
	}
	if e, _ := ParseExplain(fixture(t, "secantus-explain-ixscan.json")); !strings.HasPrefix(e.Summary, "IXSCAN { a: ") {
		t.Errorf("the test server's explain: summary %q, want IXSCAN { a: 1 }", e.Summary)
	}
}
