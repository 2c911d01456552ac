package mongodb

import (
	"context"
	"fmt"
	"github.com/mongoload/mongoload/internal/metrics"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/generate"
	"github.com/mongoload/mongoload/internal/workload"
	"github.com/mongoload/mongoload/internal/workload/workloadtest"
	"github.com/mongoload/mongoload/internal/ycsb"
)

// ycsbPlan compiles a YCSB workload running every operation type, in a
// database of its own.
func ycsbPlan(t *testing.T, w *ycsb.Workload) *workload.Plan {
	t.Helper()
	w.Database = fmt.Sprintf("mltest_ycsb_%d", time.Now().UnixNano())
	_, p := workloadtest.Compile(t, w.YAML(ycsb.RenderOptions{Name: "t", Builtin: true}), "t.yaml")
	return p
}

// TestYCSBOperations runs each YCSB operation against loaded records: the
// records have YCSB's shape, reads and read-modify-writes find the record
// their key names, scans return up to their drawn limit from the start key
// in _id order, and an insert's key is readable once the operation is over.
func TestYCSBOperations(t *testing.T) {
	cl := connectTest(t)
	ctx := context.Background()
	w := ycsb.Default()
	w.Read, w.Update, w.Insert, w.Scan, w.ReadModifyWrite = 1, 1, 1, 1, 1
	w.RequestDistribution, w.MaxScanLength = "zipfian", 20
	p := ycsbPlan(t, w)
	col := p.Collections[0]
	if _, err := cl.Prepare(ctx, p, SetupOptions{Create: true}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cl.c.Database(col.Database).Drop(context.Background()) })
	const records = 200
	loader := generate.NewState(1, 1)
	docs := make([][]byte, records)
	for i := range docs {
		docs[i] = col.Doc.Append(nil, loader)
	}
	if err := cl.InsertBatch(ctx, col, docs); err != nil {
		t.Fatal(err)
	}

	var first bson.M
	if err := cl.c.Database(col.Database).Collection(col.Name).FindOne(ctx, bson.D{{Key: "_id", Value: "user6284781860667377211"}}).Decode(&first); err != nil {
		t.Fatalf("record 0 is not user6284781860667377211: %v", err)
	}
	if len(first) != 11 {
		t.Errorf("record 0 has %d fields, want _id and field0..field9", len(first))
	}
	if f, ok := first["field3"].(bson.Binary); !ok || len(f.Data) != 100 {
		t.Errorf("field3 is %T, want 100 bytes of binary", first["field3"])
	}

	execs, err := cl.Executors(p)
	if err != nil {
		t.Fatal(err)
	}
	st := generate.NewState(2, 2)
	var req workload.Request
	for _, e := range execs {
		op := e.op
		for range 50 {
			req.Build(op, st)
			d, err := e.Do(ctx, &req)
			n := found(d.Docs)
			limit := req.Limit
			req.Release()
			if err != nil {
				t.Fatalf("%s: %v", op.Name, err)
			}
			switch op.Name {
			case ycsb.OpScan:
				if n < 1 || n > limit {
					t.Fatalf("SCAN returned %d documents for a limit of %d", n, limit)
				}
			default:
				if n != 1 {
					t.Fatalf("%s matched %d documents, want 1", op.Name, n)
				}
			}
		}
	}
	// The keys the INSERT operations took are settled once they are over,
	// so queries may draw them.
	if _, end := col.Keys.Settled(); end != records+50 {
		t.Fatalf("settled keys end at %d, want %d", end, records+50)
	}
}

// TestYCSBLatestReadsInserts runs YCSB D's operations in turn: each read,
// drawn by latest, finds its record, the newest keys included as soon as
// their inserts are over.
func TestYCSBLatestReadsInserts(t *testing.T) {
	cl := connectTest(t)
	ctx := context.Background()
	w := ycsb.Default()
	w.Read, w.Update, w.Insert, w.RequestDistribution = 0.95, 0, 0.05, "latest"
	p := ycsbPlan(t, w)
	col := p.Collections[0]
	if _, err := cl.Prepare(ctx, p, SetupOptions{Create: true}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cl.c.Database(col.Database).Drop(context.Background()) })
	execs, err := cl.Executors(p)
	if err != nil {
		t.Fatal(err)
	}
	read, insert := execs[0], execs[1]
	st := generate.NewState(3, 3)
	var req workload.Request
	do := func(e *Executor) int64 {
		req.Build(e.op, st)
		defer req.Release()
		d, err := e.Do(ctx, &req)
		n := found(d.Docs)
		if err != nil {
			t.Fatalf("%s: %v", e.op.Name, err)
		}
		return n
	}
	newest := 0
	for i := range 300 {
		if i%3 == 0 {
			do(insert)
			continue
		}
		if do(read) != 1 {
			t.Fatalf("read %d found nothing: latest drew a key not inserted", i)
		}
		_, end := col.Keys.Settled()
		if bson.Raw(req.Filter).Lookup("_id").StringValue() == fmt.Sprintf("user%d", generate.FNVHash64(end-1)) {
			newest++
		}
	}
	if _, end := col.Keys.Settled(); end != 100 {
		t.Fatalf("settled keys end at %d after 100 inserts", end)
	}
	// latest's favourite is the newest key: about 1/ζ(n) of the reads, 15%
	// to 100% here as the key space grows from 1 to 100.
	if newest < 30 {
		t.Errorf("only %d of 200 reads drew the newest key", newest)
	}
}

// found is the old single count of an operation's result: the documents it
// returned, matched (or upserted), deleted or inserted, whichever it did.
func found(d metrics.Docs) int64 {
	return max(d.Returned, d.Matched+d.Upserted, d.Deleted, d.Inserted)
}
