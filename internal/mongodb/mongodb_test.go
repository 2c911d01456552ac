package mongodb

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/testserver"
	"github.com/mongoload/mongoload/internal/workload"
	"github.com/mongoload/mongoload/internal/workload/workloadtest"
)

func TestMain(m *testing.M) { testserver.Main(m) }

func connectTest(t *testing.T) *Client {
	t.Helper()
	uri := testserver.URI(t)
	cl, err := Connect(context.Background(), config.Connection{URI: uri, Timeouts: config.Timeouts{ServerSelection: config.Duration(5 * time.Second)}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return cl
}

// plan compiles a one-collection workload in a database of its own.
func plan(t *testing.T, extra string) (*workload.Plan, string) {
	t.Helper()
	db := fmt.Sprintf("mltest_%d", time.Now().UnixNano())
	src := fmt.Sprintf(`
collections:
  - database: %s
    name: c
    template: {k: {$gen: key}, v: {$gen: int, min: 1, max: 5}}
    indexes:
      - keys: {k: 1}
        unique: true
%s
operations:
  - {name: put, type: insertOne, weight: 1}
  - {name: get, type: findOne, weight: 1, filter: {k: {$gen: key}}}
`, db, extra)
	return compile(t, src), db
}

// compile parses, validates and compiles a workload written in a test.
func compile(tb testing.TB, src string) *workload.Plan {
	tb.Helper()
	_, p := workloadtest.Compile(tb, []byte(src), "t.yaml")
	return p
}

// TestPrepareRefusesOthersCollections protects user data: a collection that
// existed before and that mongoload did not create is never written to
// unless the user says so.
func TestPrepareRefusesOthersCollections(t *testing.T) {
	cl := connectTest(t)
	ctx := context.Background()
	p, db := plan(t, "")
	if _, err := cl.c.Database(db).Collection("c").InsertOne(ctx, bson.D{{Key: "k", Value: 0}, {Key: "theirs", Value: true}}); err != nil {
		t.Fatal(err)
	}
	_, err := cl.Prepare(ctx, p, SetupOptions{Create: true})
	if !errors.Is(err, ErrNotOurs) || !strings.Contains(err.Error(), "--allow-existing") {
		t.Fatalf("writing workload on someone else's collection: %v", err)
	}
	if n, _ := cl.c.Database(db).Collection("c").CountDocuments(ctx, bson.D{}); n != 1 {
		t.Fatalf("the collection was touched: %d documents", n)
	}
	// With --allow-existing the run may use it, and the key space starts at its size.
	if _, err := cl.Prepare(ctx, p, SetupOptions{Create: true, AllowExisting: true}); err != nil {
		t.Fatal(err)
	}
	if _, end := p.Collections[0].Keys.Bounds(); end != 1 {
		t.Fatalf("key space end %d, want 1", end)
	}
	// --drop recreates it as ours.
	if _, err := cl.Prepare(ctx, p, SetupOptions{Create: true, Drop: true}); err != nil {
		t.Fatal(err)
	}
	if n, _ := cl.c.Database(db).Collection("c").CountDocuments(ctx, bson.D{}); n != 0 {
		t.Fatalf("--drop left %d documents", n)
	}
	if _, err := cl.Prepare(ctx, p, SetupOptions{Create: true}); err != nil {
		t.Fatalf("our own collection refused: %v", err)
	}
}

// TestKeySpaceSurvivesRuns: the next run reads keys the previous one wrote.
func TestKeySpaceSurvivesRuns(t *testing.T) {
	cl := connectTest(t)
	ctx := context.Background()
	p, _ := plan(t, "")
	if _, err := cl.Prepare(ctx, p, SetupOptions{Create: true}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 42; i++ {
		p.Collections[0].Keys.Next()
	}
	if err := cl.SaveKeys(ctx, p); err != nil {
		t.Fatal(err)
	}
	p.Collections[0].Keys.Reset(0, 0)
	if _, err := cl.Prepare(ctx, p, SetupOptions{Create: true}); err != nil {
		t.Fatal(err)
	}
	if _, end := p.Collections[0].Keys.Bounds(); end != 42 {
		t.Fatalf("key space end %d after reload, want 42", end)
	}
}

// TestHashedIndexRefusalIsANotice: servers without hashed indexes (this test
// server among them) refuse one that does not serve a shard key; that is
// reported, and setup goes on.
func TestHashedIndexRefusalIsANotice(t *testing.T) {
	cl := connectTest(t)
	p, _ := plan(t, "      - keys: {v: hashed}")
	notices, err := cl.Prepare(context.Background(), p, SetupOptions{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(notices, "\n")
	// A server that builds hashed indexes gives no notice; this one must.
	if !strings.Contains(joined, "refused a hashed index") {
		t.Errorf("hashed index neither built nor reported: %q", joined)
	}
}

// TestExecutorsAndClassify runs each kind of operation and checks errors are
// classified by server code.
func TestExecutorsAndClassify(t *testing.T) {
	cl := connectTest(t)
	ctx := context.Background()
	p, _ := plan(t, "")
	if _, err := cl.Prepare(ctx, p, SetupOptions{Create: true}); err != nil {
		t.Fatal(err)
	}
	execs, err := cl.Executors(p)
	if err != nil {
		t.Fatal(err)
	}
	var req workload.Request
	st := newState()
	req.Build(p.Ops[0], st)
	if _, err := execs[0].Do(ctx, &req); err != nil {
		t.Fatal(err)
	}
	// The same document again breaks the unique index.
	_, err = execs[0].Do(ctx, &req)
	if got := Classify(err); got != "DuplicateKey(11000)" {
		t.Fatalf("duplicate insert classified %q (%v)", got, err)
	}
	req.Build(p.Ops[1], st)
	if d, err := execs[1].Do(ctx, &req); err != nil || d.Returned != 1 || d.Empty != 0 {
		t.Fatalf("findOne of the inserted key: %+v err=%v", d, err)
	}
}

func TestClassifyContext(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{context.Canceled, ClassCanceled},                      // the run was interrupted
		{context.DeadlineExceeded, ClassTimeout},               // an operation deadline
		{fmt.Errorf("x: %w", context.Canceled), ClassCanceled}, // wrapped
		{errors.New("boom"), ClassOther},                       // anything else is still counted
	}
	for _, tt := range tests {
		if got := Classify(tt.err); got != tt.want {
			t.Errorf("Classify(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}
