package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/testserver"
)

// clockish has every generator that once followed the clock (objectId,
// now, timestamp, cycle without a seriesTime), nested ones too, beside
// seeded values and a value pool.
const clockish = `
collections:
  - database: mltest
    name: items
    template:
      _id: {$gen: objectId}
      k: {$gen: key}
      at: {$gen: now}
      ts: {$gen: timestamp}
      wave: {$gen: cycle, noise: 0.5}
      who: {$gen: name}
      n: {$gen: int, min: 0, max: 1000}
      refs: {$gen: array, length: 2, of: {oid: {$gen: objectId}, at: {$gen: now}}}
operations:
  - {name: get, type: findOne, weight: 1, filter: {k: {$gen: key}}}
`

// readAll reads back every document of db.items in _id order.
func readAll(t *testing.T, uri, db string, n int) []bson.Raw {
	t.Helper()
	ctx := context.Background()
	count, docs, err := connectTest(t, ctx, uri).Sample(ctx, db, "items", n+1)
	if err != nil {
		t.Fatal(err)
	}
	if count != int64(n) || len(docs) != n {
		t.Fatalf("%s.items holds %d documents (%d read), want %d", db, count, len(docs), n)
	}
	return docs
}

// TestLoadSameSeedSameDocuments: mongoload load with one --random-seed,
// twice, in different seconds of the clock, writes the same documents
// byte for byte; the server's copies, read back, are the oracle.
func TestLoadSameSeedSameDocuments(t *testing.T) {
	uri := testserver.URI(t)
	p := uniqueDB(t, clockish)
	db := dbOf(t, p)
	const n = 500
	load := func(seed string) []bson.Raw {
		t.Helper()
		code, stdout, stderr := runCLI(t, context.Background(), nil, "load", p, "--uri", uri, "--documents", "500",
			"--random-seed", seed, "--drop", "--workers", "2", "--batch-size", "100")
		if code != 0 {
			t.Fatalf("load: exit %d\n%s\n%s", code, stdout, stderr)
		}
		return readAll(t, uri, db, n)
	}
	first := load("7")
	// The next load is in another second, so that anything left following
	// the clock (the second of a timestamp, the time of an ObjectId) shows.
	for s := time.Now().Unix(); time.Now().Unix() == s; {
		time.Sleep(10 * time.Millisecond)
	}
	second := load("7")
	for i := range first {
		if !bytes.Equal(first[i], second[i]) {
			t.Fatalf("document %d differs between two loads of --random-seed 7:\n%v\n%v", i, first[i], second[i])
		}
	}
	if other := load("8"); bytes.Equal(other[0], first[0]) {
		t.Errorf("--random-seed 8 loaded the documents of 7: %v", other[0])
	}
	if !strings.Contains(first[0].String(), `"ts"`) || first[0].Lookup("_id").Type != bson.TypeObjectID {
		t.Fatalf("not the template's document: %v", first[0])
	}
}

// inserter inserts documents without _id.
const inserter = `
collections:
  - database: mltest
    name: items
    template:
      n: {$gen: int, min: 0, max: 1000}
      tag: {$gen: word}
operations:
  - {name: add, type: insertOne, weight: 3}
  - {name: addMany, type: insertMany, weight: 1, batchSize: 4}
`

// TestInsertsWithoutIDSameSeedSameIDs: two runs of one operation seed, one
// through the public API and one through the lower layer, on databases of
// their own, insert the same documents with the same _ids: mongoload sets
// an insert's _id from the worker's seeded state, not the driver from the
// clock. The server's copies are the oracle.
func TestInsertsWithoutIDSameSeedSameIDs(t *testing.T) {
	uri := testserver.URI(t)
	docs := func(path string) []bson.Raw {
		t.Helper()
		p := uniqueDB(t, inserter)
		code, stdout, stderr := runCLI(t, context.Background(), nil, "run", p, "--uri", uri, "--operations", "200",
			"--duration", "0", "--warmup", "0s", "--concurrency", "1", "--operation-seed", "11", "--driver-path", path,
			"--quiet", "--drop")
		if code != 0 {
			t.Fatalf("run (%s): exit %d\n%s\n%s", path, code, stdout, stderr)
		}
		ctx := context.Background()
		_, out, err := connectTest(t, ctx, uri).Sample(ctx, dbOf(t, p), "items", 10_000)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	api, fast := docs("api"), docs("fast")
	if len(api) < 200 || len(api) != len(fast) {
		t.Fatalf("the API path inserted %d documents, the fast path %d", len(api), len(fast))
	}
	for i := range api {
		if !bytes.Equal(api[i], fast[i]) {
			t.Fatalf("document %d: %v (API path) and %v (fast path)", i, api[i], fast[i])
		}
	}
	if first := api[0].Lookup("_id"); first.Type != bson.TypeObjectID || bytes.Equal(first.Value, api[1].Lookup("_id").Value) {
		t.Fatalf("_ids %v, %v", first, api[1].Lookup("_id"))
	}
}
