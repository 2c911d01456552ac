package cli

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/testserver"
	"github.com/mongoload/mongoload/internal/trace"
)

// upgrade_test.go: ab on captured traffic, against real servers of the
// test's own (two alike, fresh, so that the comparison compares them and
// not what other tests left on a shared one).

const shopDocs = 3000

// loadShop makes db.orders on cl: shopDocs documents, the same on every
// server, with {customer_id: 1} and {status: 1, created_at: -1}.
func loadShop(t *testing.T, ctx context.Context, cl *mongodb.Client, db string) {
	t.Helper()
	statuses := []string{"new", "paid", "shipped", "cancelled"}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var docs bson.A
	for i := 0; i < shopDocs; i++ {
		docs = append(docs, bson.D{{Key: "_id", Value: int32(i)}, {Key: "customer_id", Value: int32(i % 400)}, {Key: "status", Value: statuses[i%4]},
			{Key: "created_at", Value: t0.Add(time.Duration(i) * time.Minute)}, {Key: "total", Value: float64(i%997) / 10}, {Key: "views", Value: int32(0)}})
		if len(docs) == 500 || i == shopDocs-1 {
			if _, err := cl.Command(ctx, db, bson.D{{Key: "insert", Value: "orders"}, {Key: "documents", Value: docs}}); err != nil {
				t.Fatal(err)
			}
			docs = nil
		}
	}
	ix := bson.A{bson.D{{Key: "key", Value: bson.D{{Key: "customer_id", Value: 1}}}, {Key: "name", Value: "customer_id_1"}},
		bson.D{{Key: "key", Value: bson.D{{Key: "status", Value: 1}, {Key: "created_at", Value: -1}}}, {Key: "name", Value: "status_1_created_at_-1"}}}
	if _, err := cl.Command(ctx, db, bson.D{{Key: "createIndexes", Value: "orders"}, {Key: "indexes", Value: ix}}); err != nil {
		t.Fatal(err)
	}
}

// shopTrace writes a trace of n operations on db.orders, 1 ms apart, as
// the profiler records them: finds by customer (60%), recent orders by
// status (20%), totals by customer as an aggregation (10%), and, unless
// readsOnly is false, updates by _id (10%); then 20 inserts and one
// createIndexes. source is the header's and trailer's source deployment.
func shopTrace(t *testing.T, path, db string, n int, source []string, reads, writes bool) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	w, err := trace.NewWriter(f, trace.Header{Created: time.Now(), Tool: "mongoload capture", Databases: []string{db}, CapturedFrom: source})
	if err != nil {
		t.Fatal(err)
	}
	statuses := []string{"new", "paid", "shipped", "cancelled"}
	t0 := time.Now().Add(-time.Hour)
	add := func(i int, op, shape string, cmd bson.D) {
		raw, _ := bson.Marshal(append(cmd, bson.E{Key: "$db", Value: db}, bson.E{Key: "lsid", Value: bson.D{{Key: "id", Value: int32(i)}}}))
		if err := w.Add(trace.Entry{Start: t0.Add(time.Duration(i) * time.Millisecond), Dur: 100 * time.Microsecond, NS: db + ".orders", Op: op, Cmd: raw, Shape: shape}); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < n; i++ {
		switch k := i % 10; {
		case k < 6 && reads:
			add(i, "query", "find orders {customer_id}", bson.D{{Key: "find", Value: "orders"}, {Key: "filter", Value: bson.D{{Key: "customer_id", Value: int32(i * 7 % 400)}}}})
		case k < 8 && reads:
			add(i, "query", "find orders {created_at,status}", bson.D{{Key: "find", Value: "orders"}, {Key: "filter", Value: bson.D{{Key: "status", Value: statuses[i%4]},
				{Key: "created_at", Value: bson.D{{Key: "$gte", Value: time.Date(2026, 1, 1, 0, i%2000, 0, 0, time.UTC)}}}}}, {Key: "sort", Value: bson.D{{Key: "created_at", Value: -1}}}, {Key: "limit", Value: int32(10)}})
		case k < 9 && reads:
			add(i, "command", "aggregate orders {status}", bson.D{{Key: "aggregate", Value: "orders"}, {Key: "pipeline", Value: bson.A{
				bson.D{{Key: "$match", Value: bson.D{{Key: "status", Value: statuses[i%4]}}}},
				bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: "$customer_id"}, {Key: "sum", Value: bson.D{{Key: "$sum", Value: "$total"}}}}}},
				bson.D{{Key: "$sort", Value: bson.D{{Key: "sum", Value: -1}, {Key: "_id", Value: 1}}}}, bson.D{{Key: "$limit", Value: int32(5)}}}}, {Key: "cursor", Value: bson.D{}}})
		case k == 9 && writes:
			add(i, "update", "update orders {_id}", bson.D{{Key: "q", Value: bson.D{{Key: "_id", Value: int32(i % shopDocs)}}}, {Key: "u", Value: bson.D{{Key: "$inc", Value: bson.D{{Key: "views", Value: int32(1)}}}}}})
		}
	}
	if writes {
		for i := 0; i < 20; i++ {
			add(n+i, "insert", "insert orders", bson.D{{Key: "insert", Value: "orders"}, {Key: "documents", Value: bson.A{bson.D{{Key: "_id", Value: int32(100000 + i)}, {Key: "customer_id", Value: int32(1)}}}}})
		}
		add(n+20, "command", "createIndexes orders", bson.D{{Key: "createIndexes", Value: "orders"}, {Key: "indexes", Value: bson.A{bson.D{{Key: "key", Value: bson.D{{Key: "total", Value: 1}}}, {Key: "name", Value: "total_1"}}}}})
	}
	names := map[string]string{"find orders {customer_id}": "find_orders_by_customer", "find orders {created_at,status}": "recent_by_status", "aggregate orders {status}": "totals_by_status"}
	if err := w.Close(trace.Trailer{Names: names, CapturedFrom: source, Sources: []trace.Source{{Name: "profiler", Complete: true, Why: "level 2: every operation", Sampling: 1}}}); err != nil {
		t.Fatal(err)
	}
}

// shopState is db.orders on a server in words: its count, its indexes and
// the digest of its documents, to show ab changed nothing.
func shopState(t *testing.T, ctx context.Context, cl *mongodb.Client, db string) string {
	t.Helper()
	reply, err := cl.Command(ctx, db, bson.D{{Key: "aggregate", Value: "orders"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$sort", Value: bson.D{{Key: "_id", Value: 1}}}}}},
		{Key: "cursor", Value: bson.D{{Key: "batchSize", Value: 100000}}}})
	if err != nil {
		t.Fatal(err)
	}
	batch, _ := reply.Lookup("cursor", "firstBatch").ArrayOK()
	docs, _ := batch.Values()
	ix, err := cl.Command(ctx, db, bson.D{{Key: "listIndexes", Value: "orders"}})
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	ixs, _ := ix.Lookup("cursor", "firstBatch").ArrayOK()
	vals, _ := ixs.Values()
	for _, v := range vals {
		names = append(names, v.Document().Lookup("name").StringValue())
	}
	cols, err := cl.Command(ctx, db, bson.D{{Key: "listCollections", Value: 1}, {Key: "nameOnly", Value: true}})
	if err != nil {
		t.Fatal(err)
	}
	colNames := []string{}
	cs, _ := cols.Lookup("cursor", "firstBatch").ArrayOK()
	cvals, _ := cs.Values()
	for _, v := range cvals {
		colNames = append(colNames, v.Document().Lookup("name").StringValue())
	}
	sort.Strings(colNames)
	return fmt.Sprintf("%d documents (%d bytes), indexes %v, collections %v", len(docs), len(batch), names, colNames)
}

// shopOnTwoServers starts two fresh servers of the test's own (a test
// that compares servers never shares the suite's aged one), loads db.shop
// alike on both and writes a trace of n operations with its writes and a
// createIndexes: their URIs and clients, the data's state before, the
// test's directory and the trace's path.
func shopOnTwoServers(t *testing.T, ctx context.Context, n int) (a, b string, ca, cb *mongodb.Client, before, dir, tr string) {
	t.Helper()
	a, _ = testserver.Own(t)
	b = testserver.OwnServer(t).URI
	ca, cb = connectTest(t, ctx, a), connectTest(t, ctx, b)
	loadShop(t, ctx, ca, "shop")
	loadShop(t, ctx, cb, "shop")
	before = shopState(t, ctx, ca, "shop")
	dir = t.TempDir()
	tr = filepath.Join(dir, "t.trace")
	shopTrace(t, tr, "shop", n, []string{"elsewhere:27017"}, true, true)
	return a, b, ca, cb, before, dir, tr
}

// TestABTrafficFlagsTheDroppedIndexOnly: a trace of reads and writes on a
// copy of the same data on two fresh servers. A/A: exit 0, same, results
// compared, every shape with its rounds' tails, the writes and the
// createIndexes not sent and counted by kind. {customer_id: 1} dropped on
// B: exit 26, the find by customer flagged with IXSCAN -> COLLSCAN, no
// other shape flagged. Neither server's data or indexes changed.
func TestABTrafficFlagsTheDroppedIndexOnly(t *testing.T) {
	testserver.Timing(t) // latencies compared: meaningless under the race detector
	ctx := context.Background()
	a, b, ca, cb, before, dir, tr := shopOnTwoServers(t, ctx, 1200)
	db := "shop"
	ab := func(name string) (int, string, string) {
		out := filepath.Join(dir, name+".json")
		code, stdout, stderr := runCLI(t, ctx, nil, "ab", tr, "--uri", a, "--candidate-uri", b, "--allow-existing", "--rounds", "4", "--verify", "40", "--out", out)
		f, err := readABFile(out)
		if err != nil {
			t.Fatalf("%s: exit %d, no file (%v):\n%s%s", name, code, err, stdout, stderr)
		}
		var flagged []string
		for _, o := range f.Operations {
			t.Logf("%s: %s %s (shift %.3f, rounds %v, p %.3g, collateral %v): %s", name, o.Name, o.Flag, o.Shift, o.RoundShifts, o.P, o.Collateral, o.Why)
			if o.Flag != "none" {
				flagged = append(flagged, o.Name+" "+o.Flag+" "+o.PlanA+" -> "+o.PlanB)
			}
			if len(o.PerRound) != 8 {
				t.Errorf("%s: %s has %d perRound entries, want 8 (4 rounds, 2 sides): %+v", name, o.Name, len(o.PerRound), o.PerRound)
			}
			if strings.HasPrefix(o.Name, "update") || strings.HasPrefix(o.Name, "insert") {
				t.Errorf("%s: the write shape %s was sent", name, o.Name)
			}
		}
		if f.Method.Verified == 0 || f.Traffic == nil || f.Traffic.NotSent == nil {
			t.Errorf("%s: verified %d, traffic %+v", name, f.Method.Verified, f.Traffic)
		} else {
			for _, kind := range []string{"update: writes are not sent", "insert: writes are not sent", "createIndexes: commands that neither read nor write"} {
				found := false
				for why := range f.Traffic.NotSent {
					found = found || strings.HasPrefix(why, kind)
				}
				if !found {
					t.Errorf("%s: not sent %v lacks %q", name, f.Traffic.NotSent, kind)
				}
			}
		}
		return code, f.Verdict, strings.Join(flagged, "; ")
	}
	if code, verdict, flagged := ab("aa"); code != 0 || verdict != "same" || flagged != "" {
		t.Errorf("A/A: exit %d, verdict %s, flagged %q; want 0, same, nothing", code, verdict, flagged)
	}
	if _, err := cb.Command(ctx, db, bson.D{{Key: "dropIndexes", Value: "orders"}, {Key: "index", Value: "customer_id_1"}}); err != nil {
		t.Fatal(err)
	}
	code, verdict, flagged := ab("ab")
	if code != 26 || verdict != "regressed" || flagged != "find_orders_by_customer regression IXSCAN { customer_id: 1 } -> COLLSCAN" {
		t.Errorf("{customer_id: 1} dropped on B: exit %d, verdict %s, flagged %q; want 26, regressed, the find by customer alone with IXSCAN -> COLLSCAN", code, verdict, flagged)
	}
	if after := shopState(t, ctx, ca, db); after != before {
		t.Errorf("A changed: %s, before %s", after, before)
	}
	if after, want := shopState(t, ctx, cb, db), strings.Replace(before, "customer_id_1 ", "", 1); after != want {
		t.Errorf("B changed: %s, want %s", after, want)
	}
}

// TestABTrafficWritesAborted: with --writes aborted a trace's updates and
// inserts are sent on both sides, each in a transaction that is aborted:
// they are measured in every round without an error, neither server keeps
// any of them (its documents, their digest and its indexes as before),
// and each server's own count of aborted transactions rises by at least
// the writes sent to it (the server's word, not mongoload's). The
// createIndexes is still not sent.
func TestABTrafficWritesAborted(t *testing.T) {
	ctx := context.Background()
	a, b, ca, cb, before, dir, tr := shopOnTwoServers(t, ctx, 300)
	db := "shop"
	abortedA, abortedB := abortedTransactions(t, ctx, ca), abortedTransactions(t, ctx, cb)
	out := filepath.Join(dir, "ab.json")
	code, stdout, stderr := runCLI(t, ctx, nil, "ab", tr, "--uri", a, "--candidate-uri", b, "--allow-existing", "--rounds", "2",
		"--writes", "aborted", "--speed", "max", "--out", out)
	f, err := readABFile(out)
	if err != nil {
		t.Fatalf("exit %d, no file (%v):\n%s%s", code, err, stdout, stderr)
	}
	if f.Traffic == nil || f.Traffic.Writes != "aborted" {
		t.Fatalf("traffic %+v, want writes aborted", f.Traffic)
	}
	var sentA, sentB int64
	kinds := map[string]bool{}
	for _, o := range f.Operations {
		kind := o.Name[:min(6, len(o.Name))] // updateOne_orders_4, insertOne_orders_5
		if kind != "update" && kind != "insert" {
			continue
		}
		kinds[kind] = true
		sentA, sentB = sentA+o.ResultA.Count, sentB+o.ResultB.Count
		if o.ResultA.Errors+o.ResultB.Errors > 0 || o.ResultA.Count == 0 || o.ResultB.Count == 0 {
			t.Errorf("%s: %d sent and %d failed on A, %d and %d on B (%v, %v)", o.Name, o.ResultA.Count, o.ResultA.Errors,
				o.ResultB.Count, o.ResultB.Errors, o.ResultA.ErrorsByClass, o.ResultB.ErrorsByClass)
		}
		if len(o.PerRound) != 4 {
			t.Errorf("%s: %d perRound entries, want 4 (2 rounds, 2 sides)", o.Name, len(o.PerRound))
		}
	}
	if !kinds["update"] || !kinds["insert"] {
		t.Errorf("the write shapes measured: %v, want update and insert (operations %d, not sent %v)", kinds, len(f.Operations), f.Traffic.NotSent)
	}
	for why := range f.Traffic.NotSent {
		if strings.Contains(why, "writes are not sent") {
			t.Errorf("not sent with --writes aborted: %q", why)
		}
	}
	if n := f.Traffic.NotSent; len(n) == 0 || !strings.HasPrefix(strings.Join(slices.Sorted(maps.Keys(n)), ";"), "createIndexes") {
		t.Errorf("not sent %v, want the createIndexes alone", n)
	}
	if got := abortedTransactions(t, ctx, ca) - abortedA; got < sentA {
		t.Errorf("A aborted %d transactions by its own count, fewer than the %d writes sent to it", got, sentA)
	}
	if got := abortedTransactions(t, ctx, cb) - abortedB; got < sentB {
		t.Errorf("B aborted %d transactions by its own count, fewer than the %d writes sent to it", got, sentB)
	}
	for side, cl := range map[string]*mongodb.Client{"A": ca, "B": cb} {
		if after := shopState(t, ctx, cl, db); after != before {
			t.Errorf("%s kept writes: %s, before %s", side, after, before)
		}
		// an update's $inc leaves a document's size as it was: counted apart
		reply, err := cl.Command(ctx, db, bson.D{{Key: "count", Value: "orders"}, {Key: "query", Value: bson.D{{Key: "views", Value: bson.D{{Key: "$ne", Value: 0}}}}}})
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := reply.Lookup("n").AsInt64OK(); n != 0 {
			t.Errorf("%s kept %d updates (documents with views != 0)", side, n)
		}
	}
	if t.Failed() {
		t.Logf("ab exit %d:\n%s%s", code, stdout, stderr)
	}
}

// abortedTransactions is the server's count of transactions aborted.
func abortedTransactions(t *testing.T, ctx context.Context, cl *mongodb.Client) int64 {
	t.Helper()
	reply, err := cl.Command(ctx, "admin", bson.D{{Key: "serverStatus", Value: 1}})
	if err != nil {
		t.Fatal(err)
	}
	v, ok := reply.Lookup("transactions", "totalAborted").AsInt64OK()
	if !ok {
		t.Fatalf("serverStatus has no transactions.totalAborted")
	}
	return v
}
