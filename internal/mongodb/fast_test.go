package mongodb

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/generate"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/testserver"
	"github.com/mongoload/mongoload/internal/workload"
)

// parityWorkload has every kind the fast path sends, and operations that
// fail on the server (a duplicate key, $inc of a string), so that results
// and errors can be compared between the two paths.
const parityWorkload = `
collections:
  - database: %s
    name: c
    template: {k: {$gen: key}, v: {$gen: int, min: 1, max: 5}, s: {$gen: string, length: 20}}
    indexes:
      - keys: {k: 1}
        unique: true
operations:
  - {name: find, type: find, weight: 1, filter: {v: {$gen: int, min: 1, max: 5}}, limit: 150, sort: {k: 1}, projection: {k: 1, v: 1}}
  - {name: findOne, type: findOne, weight: 1, filter: {k: {$gen: int, min: 0, max: 400}}}
  - {name: insertOne, type: insertOne, weight: 1}
  - {name: dup, type: insertOne, weight: 1, document: {k: 3, v: 1}}
  - {name: updateOne, type: updateOne, weight: 1, filter: {k: {$gen: int, min: 0, max: 400}}, update: {$set: {s: {$gen: string, length: 20}}}}
  - {name: upsert, type: upsert, weight: 1, filter: {k: {$gen: int, min: 1000, max: 1100}}, update: {$inc: {v: 1}}}
  - {name: updateMany, type: updateMany, weight: 1, filter: {v: {$gen: int, min: 1, max: 5}}, update: {$inc: {v: 1}}}
  - {name: badInc, type: updateOne, weight: 1, filter: {k: {$gen: int, min: 0, max: 50}}, update: {$inc: {s: 1}}}
  - {name: replaceOne, type: replaceOne, weight: 1, filter: {k: -1}, document: {k: -1, v: 1}, upsert: true}
  - {name: deleteOne, type: deleteOne, weight: 1, filter: {k: {$gen: int, min: 0, max: 400}}}
  - {name: deleteMany, type: deleteMany, weight: 1, filter: {v: {$gen: int, min: 9, max: 12}}}
`

// pathOutcome is what one path did: per operation, the documents the
// server reported and the errors by class; the server's own operation
// counters; and what the collection holds afterwards.
type pathOutcome struct {
	docs     []metrics.Docs
	errs     []map[string]int
	counters map[string]int64
	holds    []string
}

// TestFastPathMatchesAPI runs the same operations, from the same seeds,
// once through the public API and once through the lower layer, each
// against a fresh database of a server of its own. The oracle is the
// server: its opcounters, and the documents left, must be the same; so
// must the documents each operation reports and its errors by class.
func TestFastPathMatchesAPI(t *testing.T) {
	srv := testserver.OwnServer(t)
	api := runParity(t, srv.URI, config.DriverPathAPI)
	fast := runParity(t, srv.URI, config.DriverPathFast)
	for i := range api.docs {
		if api.docs[i] != fast.docs[i] {
			t.Errorf("operation %d: documents through the API %+v, through the lower layer %+v", i, api.docs[i], fast.docs[i])
		}
		if fmt.Sprint(api.errs[i]) != fmt.Sprint(fast.errs[i]) {
			t.Errorf("operation %d: errors through the API %v, through the lower layer %v", i, api.errs[i], fast.errs[i])
		}
	}
	if fmt.Sprint(api.counters) != fmt.Sprint(fast.counters) {
		t.Errorf("server opcounters: API %v, lower layer %v", api.counters, fast.counters)
	}
	if strings.Join(api.holds, "\n") != strings.Join(fast.holds, "\n") {
		t.Errorf("the collections differ: API %d documents, lower layer %d", len(api.holds), len(fast.holds))
	}
	// Not vacuous: the comparison saw documents and errors of each cause.
	if api.errs[3]["DuplicateKey(11000)"] == 0 || len(api.errs[7]) == 0 || api.docs[0].Returned == 0 || api.docs[8].Upserted+api.docs[8].Matched == 0 {
		t.Errorf("the workload did not exercise what it should: docs %+v, errors %v", api.docs, api.errs)
	}
}

func runParity(t *testing.T, uri, path string) pathOutcome {
	t.Helper()
	ctx := context.Background()
	db := fmt.Sprintf("mlparity_%s_%d", path, time.Now().UnixNano())
	plan := compile(t, fmt.Sprintf(parityWorkload, db))
	cl, err := Connect(ctx, config.Connection{URI: uri, DriverPath: path})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if got := cl.Fast(); got != (path == config.DriverPathFast) {
		t.Fatalf("--driver-path %s: Fast() = %v", path, got)
	}
	if _, err := cl.Prepare(ctx, plan, SetupOptions{Create: true}); err != nil {
		t.Fatal(err)
	}
	execs, err := cl.Executors(plan)
	if err != nil {
		t.Fatal(err)
	}
	out := pathOutcome{docs: make([]metrics.Docs, len(plan.Ops)), errs: make([]map[string]int, len(plan.Ops))}
	for i := range out.errs {
		out.errs[i] = map[string]int{}
	}
	var req workload.Request
	st := generate.NewState(7, 1)
	for range 300 { // the documents to work on
		req.Build(plan.Ops[2], st)
		if _, err := execs[2].Do(ctx, &req); err != nil {
			t.Fatal(err)
		}
		req.Release()
	}
	before := opcounters(t, cl)
	for n := range 600 {
		i := n % len(plan.Ops)
		req.Build(plan.Ops[i], st)
		rep, err := execs[i].Do(ctx, &req)
		req.Release()
		d := rep.Docs
		d.Shaped = 0 // counted by the engine's kind, not by the path
		out.docs[i].Add(d)
		if err != nil {
			out.errs[i][Classify(err)]++
		}
	}
	after := opcounters(t, cl)
	out.counters = map[string]int64{}
	for k, v := range after {
		if k != "command" && k != "getmore" { // the probe commands and getMores of the session
			out.counters[k] = v - before[k]
		}
	}
	cur, err := cl.c.Database(db).Collection("c").Find(ctx, bson.D{}, options.Find().SetSort(bson.D{{Key: "k", Value: 1}}).SetProjection(bson.D{{Key: "_id", Value: 0}}))
	if err != nil {
		t.Fatal(err)
	}
	for cur.Next(ctx) {
		out.holds = append(out.holds, cur.Current.String())
	}
	_ = cl.c.Database(db).Drop(ctx)
	return out
}

func opcounters(t *testing.T, cl *Client) map[string]int64 {
	t.Helper()
	raw, err := cl.ServerStatus(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	els, _ := raw.Lookup("opcounters").Document().Elements()
	for _, e := range els {
		out[e.Key()] = e.Value().AsInt64()
	}
	return out
}

// TestFastPathRetriesLikeAPI breaks the connections under a running
// workload of retryable $inc updates, both ways: every connection cut
// (the connections dropped mid-operation), then the server stopped and
// started again on its data. Through either path some operations must
// have been retried after each fault (a failed command inside a successful
// operation, from the command monitor); an operation may fail only as the
// driver gives up after its one retry (its retry met the pool that the
// first failure cleared, or the network again: the public API does the
// same with eight workers, 2 runs in 4 here), never with another error;
// and the server must hold one $inc per successful operation, plus at most
// one per failed one: a retry that the server had already applied is not
// applied twice (retryable writes' txnNumber).
func TestFastPathRetriesLikeAPI(t *testing.T) {
	srv := testserver.OwnServer(t)
	hostPort := strings.TrimPrefix(strings.SplitN(srv.URI, "/?", 2)[0], "mongodb://")
	for _, path := range []string{config.DriverPathAPI, config.DriverPathFast} {
		t.Run(path, func(t *testing.T) {
			proxy := testserver.NewProxy(t, hostPort)
			ctx := context.Background()
			db := fmt.Sprintf("mlretry_%s_%d", path, time.Now().UnixNano())
			plan := compile(t, fmt.Sprintf(`
collections:
  - {database: %s, name: c, template: {k: {$gen: key}, n: 0}}
operations:
  - {name: inc, type: updateOne, weight: 1, filter: {k: {$gen: int, min: 0, max: 3}}, update: {$inc: {n: 1}}}
  - {name: read, type: findOne, weight: 1, filter: {k: {$gen: int, min: 0, max: 3}}}
`, db))
			conn := config.Connection{URI: "mongodb://" + proxy.Addr() + "/?directConnection=true", DriverPath: path,
				Timeouts: config.Timeouts{ServerSelection: config.Duration(20 * time.Second)}}
			cl, err := Connect(ctx, conn)
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Close()
			if _, err := cl.Prepare(ctx, plan, SetupOptions{Create: true}); err != nil {
				t.Fatal(err)
			}
			coll := cl.c.Database(db).Collection("c")
			for k := range 4 {
				if _, err := coll.InsertOne(ctx, bson.D{{Key: "k", Value: k}, {Key: "n", Value: 0}}); err != nil {
					t.Fatal(err)
				}
			}
			execs, err := cl.Executors(plan)
			if err != nil {
				t.Fatal(err)
			}
			var incs, ops, retried, failedIncs atomic.Int64
			var firstErr atomic.Value
			stop := make(chan struct{})
			var wg sync.WaitGroup
			for w := range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					st := generate.NewState(3, uint64(w)+1)
					var req workload.Request
					for i := 0; ; i++ {
						select {
						case <-stop:
							return
						default:
						}
						op := i % 2
						req.Build(plan.Ops[op], st)
						rep, err := execs[op].Do(ctx, &req)
						req.Release()
						if err != nil {
							switch Classify(err) {
							case ClassPoolCleared, ClassNetwork, ClassSelection:
								if op == 0 {
									failedIncs.Add(1) // applied or not: the client cannot know
								}
							default:
								firstErr.CompareAndSwap(nil, fmt.Sprintf("%s: %s: %v", plan.Ops[op].Name, Classify(err), err))
							}
							continue
						}
						ops.Add(1)
						retried.Add(rep.Failed)
						if op == 0 {
							incs.Add(rep.Docs.Modified)
						}
					}
				}()
			}
			progress := func(n int64) {
				from := ops.Load()
				testserver.Await(t, 20*time.Second, "operations after the fault", func() bool { return ops.Load() >= from+n })
			}
			progress(200)
			for range 20 { // cut until an operation was caught in flight and retried
				proxy.Cut(false)
				progress(50)
				if retried.Load() > 0 {
					break
				}
			}
			cutRetries := retried.Load()
			srv.Stop()
			srv.Start()
			progress(200)
			close(stop)
			wg.Wait()
			if e := firstErr.Load(); e != nil {
				t.Errorf("an operation failed with an error the driver's retry does not give: %v", e)
			}
			if cutRetries == 0 || retried.Load() == cutRetries {
				t.Errorf("commands retried: %d after the cuts, %d after the restart: want some after each", cutRetries, retried.Load())
			}
			var held struct{ N int64 }
			res, err := coll.Aggregate(ctx, bson.A{bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: nil}, {Key: "n", Value: bson.D{{Key: "$sum", Value: "$n"}}}}}}})
			if err != nil || !res.Next(ctx) {
				t.Fatalf("sum of n: %v", err)
			}
			_ = res.Decode(&held)
			if held.N < incs.Load() || held.N > incs.Load()+failedIncs.Load() {
				t.Errorf("the server holds %d increments, the operations reported %d and %d failed", held.N, incs.Load(), failedIncs.Load())
			}
			_ = cl.c.Database(db).Drop(ctx)
		})
	}
}

// TestFastPathKeepsCallersSession: an operation given a context that
// carries an explicit session (a caller's transaction) runs in it, through
// the public API, whatever the driver path: an insert in a transaction
// that is then aborted leaves nothing (the lower layer would have run it
// outside the transaction, and the document would stay).
func TestFastPathKeepsCallersSession(t *testing.T) {
	ctx := context.Background()
	uri := testserver.URI(t)
	db := fmt.Sprintf("mlsess_%d", time.Now().UnixNano())
	plan := compile(t, fmt.Sprintf(parityWorkload, db))
	cl, err := Connect(ctx, config.Connection{URI: uri, DriverPath: config.DriverPathFast})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if _, err := cl.Prepare(ctx, plan, SetupOptions{Create: true}); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cl.c.Database(db).Drop(ctx) }()
	execs, err := cl.Executors(plan)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := cl.c.StartSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.EndSession(ctx)
	if err := sess.StartTransaction(); err != nil {
		t.Fatal(err)
	}
	var req workload.Request
	req.Build(plan.Ops[3], generate.NewState(1, 1)) // insertOne {k: 3, v: 1}
	if _, err := execs[3].Do(mongo.NewSessionContext(ctx, sess), &req); err != nil {
		t.Fatal(err)
	}
	if err := sess.AbortTransaction(ctx); err != nil {
		t.Fatal(err)
	}
	if n, err := cl.c.Database(db).Collection("c").CountDocuments(ctx, bson.D{}); err != nil || n != 0 {
		t.Errorf("after the aborted transaction the collection holds %d documents (%v): the insert ran outside the caller's session", n, err)
	}
}
