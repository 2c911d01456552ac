package cli

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/testserver"
)

// The library: an application of the test's own, with its documents
// (books: a unique isbn, a skewed genre, nested author, tags) and its mix
// of five shapes, run against a real server with the profiler on.

var genres = []string{"fiction", "science", "history", "poetry", "travel"}

func book(r *rand.Rand, i int) bson.D {
	g := []int{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 3, 4}[r.IntN(20)] // 50/25/15/5/5
	tags := bson.A{}
	for range 1 + r.IntN(3) {
		tags = append(tags, []string{"new", "classic", "signed", "illustrated"}[r.IntN(4)])
	}
	return bson.D{{Key: "_id", Value: bson.NewObjectID()}, {Key: "isbn", Value: fmt.Sprintf("ISBN-%07d", i)}, {Key: "genre", Value: genres[g]},
		{Key: "pages", Value: int32(50 + r.IntN(850))}, {Key: "price", Value: float64(200+r.IntN(9800)) / 100},
		{Key: "published", Value: time.Date(1990, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(r.IntN(35*365*24)) * time.Hour)},
		{Key: "tags", Value: tags}, {Key: "author", Value: bson.D{{Key: "name", Value: fmt.Sprintf("Author %d", r.IntN(100000))}, {Key: "born", Value: int32(1900 + r.IntN(100))}}}}
}

// libraryMix is the application's mix, in percent.
var libraryMix = map[string]float64{"by_isbn": 35, "genre_pages": 30, "reprice": 15, "count_genre": 10, "add_book": 10}

func profileLevel(t *testing.T, ctx context.Context, cl *mongodb.Client, db string, level int) {
	t.Helper()
	if _, err := cl.Command(ctx, db, bson.D{{Key: "profile", Value: 0}}); err != nil {
		t.Fatal(err)
	}
	_, _ = cl.Command(ctx, db, bson.D{{Key: "drop", Value: "system.profile"}})
	if level > 0 {
		if _, err := cl.Command(ctx, db, bson.D{{Key: "profile", Value: level}}); err != nil {
			t.Fatal(err)
		}
	}
}

// runLibrary loads the books and runs ops operations of the mix with the
// profiler at level 2, then turns it off (as an operator would after a
// window), so that capture must tell from the entries that they are
// complete.
func runLibrary(t *testing.T, ctx context.Context, cl *mongodb.Client, db string, ops int) {
	t.Helper()
	r := rand.New(rand.NewPCG(11, 12))
	var ids []bson.ObjectID
	for b := 0; b < 3000; b += 500 {
		docs := bson.A{}
		for i := b; i < b+500; i++ {
			d := book(r, i)
			ids = append(ids, d[0].Value.(bson.ObjectID))
			docs = append(docs, d)
		}
		if _, err := cl.Command(ctx, db, bson.D{{Key: "insert", Value: "books"}, {Key: "documents", Value: docs}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := cl.Command(ctx, db, bson.D{{Key: "createIndexes", Value: "books"}, {Key: "indexes", Value: bson.A{
		bson.D{{Key: "key", Value: bson.D{{Key: "isbn", Value: 1}}}, {Key: "name", Value: "isbn_1"}, {Key: "unique", Value: true}},
		bson.D{{Key: "key", Value: bson.D{{Key: "genre", Value: 1}, {Key: "pages", Value: 1}}}, {Key: "name", Value: "genre_1_pages_1"}},
	}}}); err != nil {
		t.Fatal(err)
	}
	profileLevel(t, ctx, cl, db, 2)
	next := 3000
	for range ops {
		p := r.Float64() * 100
		var cmd bson.D
		switch {
		case p < 35:
			cmd = bson.D{{Key: "find", Value: "books"}, {Key: "filter", Value: bson.D{{Key: "isbn", Value: fmt.Sprintf("ISBN-%07d", r.IntN(3000))}}}}
		case p < 65:
			lo := int32(50 + r.IntN(800))
			cmd = bson.D{{Key: "find", Value: "books"}, {Key: "filter", Value: bson.D{{Key: "genre", Value: genres[r.IntN(2)]}, {Key: "pages", Value: bson.D{{Key: "$gte", Value: lo}, {Key: "$lt", Value: lo + 100}}}}},
				{Key: "sort", Value: bson.D{{Key: "pages", Value: 1}}}, {Key: "limit", Value: int64(50)}}
		case p < 80:
			cmd = bson.D{{Key: "update", Value: "books"}, {Key: "updates", Value: bson.A{bson.D{{Key: "q", Value: bson.D{{Key: "_id", Value: ids[r.IntN(len(ids))]}}},
				{Key: "u", Value: bson.D{{Key: "$set", Value: bson.D{{Key: "price", Value: float64(200+r.IntN(9800)) / 100}}}}}}}}}
		case p < 90:
			cmd = bson.D{{Key: "count", Value: "books"}, {Key: "query", Value: bson.D{{Key: "genre", Value: genres[r.IntN(5)]}}}}
		default:
			cmd = bson.D{{Key: "insert", Value: "books"}, {Key: "documents", Value: bson.A{book(r, next)}}}
			next++
		}
		if _, err := cl.Command(ctx, db, cmd); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := cl.Command(ctx, db, bson.D{{Key: "profile", Value: 0}}); err != nil {
		t.Fatal(err)
	}
}

// classify names the library's shape of a profiler entry on books,
// reading only the entry (not capture's code): the oracle's view.
func classify(e bson.Raw) string {
	if ns, _ := e.Lookup("ns").StringValueOK(); !strings.HasSuffix(ns, ".books") {
		return ""
	}
	op, _ := e.Lookup("op").StringValueOK()
	cmd, _ := e.Lookup("command").DocumentOK()
	if c, _ := cmd.Lookup("comment").StringValueOK(); c == mongodb.SetupComment {
		return "" // mongoload's setup (where the keys end), not the workload
	}
	keys := func(d bson.Raw) string {
		els, _ := d.Elements()
		var k []string
		for _, e := range els {
			k = append(k, e.Key())
		}
		sort.Strings(k)
		return strings.Join(k, ",")
	}
	switch op {
	case "query":
		switch keys(cmd.Lookup("filter").Document()) {
		case "isbn":
			return "by_isbn"
		case "genre,pages":
			return "genre_pages"
		}
	case "update":
		return "reprice"
	case "insert":
		return "add_book"
	case "command":
		if _, ok := cmd.Lookup("count").StringValueOK(); ok {
			return "count_genre"
		}
		if p, ok := cmd.Lookup("pipeline").ArrayOK(); ok && strings.Contains(p.String(), "$group") {
			return "count_genre" // countDocuments is an aggregation
		}
		return ""
	case "getmore":
		return ""
	}
	return "other_" + op
}

// profiled reads a server's profiler: each shape's share and mean
// documents returned.
func profiled(t *testing.T, ctx context.Context, cl *mongodb.Client, db string) (shares, returned map[string]float64) {
	t.Helper()
	count, ret := map[string]float64{}, map[string]float64{}
	total := 0.0
	err := cl.AggregateEach(ctx, db, "system.profile", bson.A{}, func(e bson.Raw) error {
		s := classify(e)
		if s == "" {
			return nil
		}
		count[s]++
		total++
		if v, ok := e.Lookup("nreturned").AsInt64OK(); ok {
			ret[s] += float64(v)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	shares, returned = map[string]float64{}, map[string]float64{}
	for s, n := range count {
		shares[s], returned[s] = n/total, ret[s]/n
	}
	return shares, returned
}

// fieldTypes is the dominant type of each field path of 300 sampled books.
func fieldTypes(t *testing.T, ctx context.Context, cl *mongodb.Client, db string) map[string]string {
	t.Helper()
	seen := map[string]map[bson.Type]int{}
	var walk func(prefix string, d bson.Raw)
	walk = func(prefix string, d bson.Raw) {
		els, _ := d.Elements()
		for _, e := range els {
			p := prefix + e.Key()
			if seen[p] == nil {
				seen[p] = map[bson.Type]int{}
			}
			seen[p][e.Value().Type]++
			if sub, ok := e.Value().DocumentOK(); ok {
				walk(p+".", sub)
			}
		}
	}
	if err := cl.SampleEach(ctx, db, "books", 300, func(d bson.Raw) error { walk("", d); return nil }); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for p, ts := range seen {
		best, n := bson.Type(0), 0
		for ty, k := range ts {
			if k > n {
				best, n = ty, k
			}
		}
		out[p] = best.String()
	}
	return out
}

func connectTest(t *testing.T, ctx context.Context, uri string) *mongodb.Client {
	t.Helper()
	cl, err := mongodb.Connect(ctx, config.Connection{URI: uri})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return cl
}

// TestCaptureReplaysTheApplication: the library runs on server A with the
// profiler on; capture writes its workload; the workload runs on a fresh
// server B with B's profiler on; B's profiler, read by the test's own
// classification, is the oracle: every shape's share within 5 points of
// A's, documents returned per find shape within 0.5x..2x, the documents'
// field types as A's. Then capture of B and --compare set them side by side.
func TestCaptureReplaysTheApplication(t *testing.T) {
	ctx := context.Background()
	uriA := testserver.URI(t)
	uriB, _ := testserver.Own(t)
	db := fmt.Sprintf("capapp_%d", os.Getpid())
	a, b := connectTest(t, ctx, uriA), connectTest(t, ctx, uriB)
	t.Cleanup(func() { _, _ = a.Command(context.Background(), db, bson.D{{Key: "dropDatabase", Value: 1}}) })
	runLibrary(t, ctx, a, db, 1500)
	sharesA, returnedA := profiled(t, ctx, a, db)

	dir := t.TempDir()
	w := filepath.Join(dir, "library.yaml")
	code, out, errs := runCLI(t, ctx, nil, "capture", "--uri", uriA, "--database", db, "--out", w)
	if code != 0 {
		t.Fatalf("capture exit %d: %s%s", code, out, errs)
	}
	text, _ := os.ReadFile(w)
	if strings.Contains(string(text), "Author ") || strings.Contains(string(text), "ISBN-00") {
		t.Errorf("the workload carries high-cardinality literals (author names, isbns):\n%s", text)
	}
	if !strings.Contains(string(text), "rate: ") {
		t.Errorf("a complete profiler record gave no rate:\n%s", text)
	}
	if code, out, errs := runCLI(t, ctx, nil, "run", w, "--uri", uriB, "--duration", "1s", "--quiet"); code != 0 {
		t.Fatalf("seeding B: exit %d: %s%s", code, out, errs)
	}
	profileLevel(t, ctx, b, db, 2)
	if code, out, errs := runCLI(t, ctx, nil, "run", w, "--uri", uriB, "--duration", "4s", "--quiet"); code != 0 {
		t.Fatalf("replay on B: exit %d: %s%s", code, out, errs)
	}
	sharesB, returnedB := profiled(t, ctx, b, db)
	if _, err := b.Command(ctx, db, bson.D{{Key: "profile", Value: 0}}); err != nil {
		t.Fatal(err)
	}
	for s, x := range sharesA {
		if y := sharesB[s]; math.Abs(x-y) > 0.05 {
			t.Errorf("%s: %.1f%% of the replay, %.1f%% of the application", s, y*100, x*100)
		}
	}
	for s := range sharesB {
		if _, ok := sharesA[s]; !ok {
			t.Errorf("the replay ran a shape the application never did: %s (%.1f%%)", s, sharesB[s]*100)
		}
	}
	for _, s := range []string{"by_isbn", "genre_pages"} {
		if x, y := returnedA[s], returnedB[s]; y < 0.5*x || y > 2*x {
			t.Errorf("%s returned %.2f documents on average in the replay, %.2f in the application", s, y, x)
		}
	}
	typesA, typesB := fieldTypes(t, ctx, a, db), fieldTypes(t, ctx, b, db)
	for p, ty := range typesA {
		if typesB[p] != ty {
			t.Errorf("field %s is %s in the replay, %s in the application", p, typesB[p], ty)
		}
	}

	// The documented fidelity check: capture B, compare.
	replay := filepath.Join(dir, "replay.yaml")
	if code, out, errs := runCLI(t, ctx, nil, "capture", "--uri", uriB, "--database", db, "--out", replay); code != 0 {
		t.Fatalf("capture B: exit %d: %s%s", code, out, errs)
	}
	code, out, errs = runCLI(t, ctx, nil, "capture", "--compare", w, replay)
	if code != 0 || !strings.Contains(out, "largest difference in share: ") {
		t.Fatalf("compare: exit %d: %s%s", code, out, errs)
	}
	var worst float64
	var off int
	fmt.Sscanf(out[strings.Index(out, "largest difference in share: "):], "largest difference in share: %f points; shapes whose documents returned differ by more than 2x: %d", &worst, &off)
	if worst > 5 || off > 0 {
		t.Errorf("compare: worst share difference %.1f points, %d shapes with other documents returned:\n%s", worst, off, out)
	}
}

// TestCaptureReproducesABuiltinWorkload: a property: a run of a built-in
// workload, captured from the profiler, gives back one shape per
// operation, in the share the run's own results counted for it.
func TestCaptureReproducesABuiltinWorkload(t *testing.T) {
	for _, tc := range []struct{ workload, db string }{
		{"default", "airline"}, // finds, updates, inserts one and ten at a time, deletes, aggregations
		{"ycsb-e", "ycsb"},     // range scans of a drawn limit, inserts
	} {
		t.Run(tc.workload, func(t *testing.T) { reproduces(t, tc.workload, tc.db) })
	}
}

func reproduces(t *testing.T, name, db string) {
	ctx := context.Background()
	uri, _ := testserver.Own(t)
	cl := connectTest(t, ctx, uri)
	dir := t.TempDir()
	if code, out, errs := runCLI(t, ctx, nil, "run", name, "--uri", uri, "--seed", "2000", "--duration", "1s", "--quiet"); code != 0 {
		t.Fatalf("seed: exit %d: %s%s", code, out, errs)
	}
	profileLevel(t, ctx, cl, db, 2)
	res := filepath.Join(dir, "r.json")
	if code, out, errs := runCLI(t, ctx, nil, "run", name, "--uri", uri, "--duration", "3s", "--warmup", "0s", "--concurrency", "4", "--quiet", "--out", res); code != 0 {
		t.Fatalf("run: exit %d: %s%s", code, out, errs)
	}
	if _, err := cl.Command(ctx, db, bson.D{{Key: "profile", Value: 0}}); err != nil {
		t.Fatal(err)
	}
	// The oracle: the operations the run itself counted.
	ran := operationCounts(t, res)
	w := filepath.Join(dir, "w.yaml")
	if code, out, errs := runCLI(t, ctx, nil, "capture", "--uri", uri, "--database", db, "--out", w); code != 0 {
		t.Fatalf("capture: exit %d: %s%s", code, out, errs)
	}
	cfg, err := config.Load(w)
	if err != nil {
		t.Fatal(err)
	}
	total := 0.0
	for _, n := range ran {
		total += n
	}
	var want, got []float64
	for _, n := range ran {
		want = append(want, math.Round(n/total*1000)/10)
	}
	for _, op := range cfg.Operations {
		got = append(got, math.Round(op.Weight*10)/10)
	}
	slices.Sort(want)
	slices.Sort(got)
	if len(got) != len(want) {
		t.Fatalf("captured %d shapes %v, the run had %d operations %v", len(got), got, len(want), want)
	}
	for i := range want {
		if math.Abs(want[i]-got[i]) > 1.5 {
			t.Errorf("shares: captured %v, ran %v (sorted, percent)", got, want)
			break
		}
	}
}

// operationCounts is the operations a run's results counted, by name
// (successes and errors: the server saw both).
func operationCounts(t *testing.T, path string) map[string]float64 {
	t.Helper()
	r, err := results.ReadJSON(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, op := range r.Operations {
		if op.Parent == "" {
			out[op.Name] = float64(op.Count + op.Errors)
		}
	}
	return out
}
