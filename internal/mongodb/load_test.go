package mongodb

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/loader"
	"github.com/mongoload/mongoload/internal/workload"
	"github.com/mongoload/mongoload/internal/workload/workloadtest"
)

// The client is the driver's side of a load (internal/loader).
var (
	_ loader.Writer = (*Client)(nil)
	_ loader.Meta   = (*Client)(nil)
)

// cancelAfter is an inserter that interrupts the load (cancels its
// context) once it has sent n batches: Ctrl-C in the middle of a real load.
type cancelAfter struct {
	loader.Inserter
	n      int64
	sent   atomic.Int64
	cancel context.CancelFunc
}

func (c *cancelAfter) InsertDocs(ctx context.Context, col *workload.Collection, docs [][]byte) error {
	if c.sent.Add(1) == c.n {
		c.cancel()
	}
	return c.Inserter.InsertDocs(ctx, col, docs)
}

// checkKeys verifies that collection c holds exactly keys 0..n-1 in k,
// once each, and n documents.
func checkKeys(t *testing.T, cl *Client, db string, n int64) {
	t.Helper()
	ctx := context.Background()
	coll := cl.c.Database(db).Collection("c")
	count, err := coll.CountDocuments(ctx, bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	cur, err := coll.Aggregate(ctx, bson.A{bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: nil},
		{Key: "keys", Value: bson.D{{Key: "$addToSet", Value: "$k"}}},
		{Key: "min", Value: bson.D{{Key: "$min", Value: "$k"}}}, {Key: "max", Value: bson.D{{Key: "$max", Value: "$k"}}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	var out []struct {
		Keys     []int64 `bson:"keys"`
		Min, Max int64
	}
	if err := cur.All(ctx, &out); err != nil || len(out) != 1 {
		t.Fatalf("aggregate: %v (%d groups)", err, len(out))
	}
	g := out[0]
	if count != n || int64(len(g.Keys)) != n || g.Min != 0 || g.Max != n-1 {
		t.Fatalf("%d documents with %d distinct keys from %d to %d; want %d documents, keys 0..%d once each",
			count, len(g.Keys), g.Min, g.Max, n, n-1)
	}
}

// frozenStore stops recording once frozen, like a process killed between
// two saves of its progress: the record lags behind what was written.
type frozenStore struct {
	*loader.MetaStore
	frozen atomic.Bool
}

func (f *frozenStore) SavePart(ctx context.Context, col *workload.Collection, gen int64, part int, ps loader.PartState) error {
	if f.frozen.Load() {
		return nil
	}
	return f.MetaStore.SavePart(ctx, col, gen, part, ps)
}

// TestLoadInterruptedAndResumed interrupts a real load mid-way and resumes
// it, then checks that the collection holds keys 0..N-1 exactly once: no
// duplicates (a unique index on the key would refuse them anyway, and _id
// is derived from the key) and no gaps. "graceful" is Ctrl-C: the batches
// in flight finish and the progress is recorded; "abrupt" is a kill: the
// batches in flight are cut off and the record stops where it was.
func TestLoadInterruptedAndResumed(t *testing.T) {
	for _, abrupt := range []bool{false, true} {
		t.Run(map[bool]string{false: "graceful", true: "abrupt"}[abrupt], func(t *testing.T) {
			cl := connectTest(t)
			p, db := plan(t, "")
			col := p.Collections[0]
			if _, err := cl.Prepare(context.Background(), p, SetupOptions{Create: true}); err != nil {
				t.Fatal(err)
			}
			const n = 20_000
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			store := &frozenStore{MetaStore: loader.NewStore(cl)}
			o := loader.Options{Target: n, BatchSize: 500, Workers: 4}
			stop := cancel
			if abrupt {
				o.Grace = time.Nanosecond
				stop = func() { store.frozen.Store(true); cancel() }
			}
			ins := &cancelAfter{Inserter: loader.NewInserter(cl, nil), n: 20, cancel: stop}
			res, err := loader.Load(ctx, ins, store, col, o)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("interrupted load: %v", err)
			}
			if res.Done() >= n {
				t.Fatalf("%d documents before the interruption", res.Done())
			}
			rec, err := loader.NewStore(cl).ReadLoad(context.Background(), col)
			if err != nil || rec == nil || rec.Finished {
				t.Fatalf("record after the interruption: %+v, %v", rec, err)
			}
			if !abrupt && rec.Parts[0].Done.Len() != res.Done() {
				t.Fatalf("recorded %d keys done, the load wrote %d", rec.Parts[0].Done.Len(), res.Done())
			}
			// A new process: it compiles the workload again and reads the state back.
			p2, _ := planFor(t, db)
			if _, err := cl.Prepare(context.Background(), p2, SetupOptions{Create: true}); err != nil {
				t.Fatal(err)
			}
			_, err = loader.Load(context.Background(), loader.NewInserter(cl, nil), loader.NewStore(cl), p2.Collections[0], loader.Options{Target: n})
			if !errors.Is(err, loader.ErrConflict) {
				t.Fatalf("a load over the interrupted one without --resume: %v", err)
			}
			res, err = loader.Load(context.Background(), loader.NewInserter(cl, nil), loader.NewStore(cl), p2.Collections[0], loader.Options{Resume: true, BatchSize: 700, Workers: 3})
			if err != nil {
				t.Fatal(err)
			}
			if !res.LoadFinished || res.Already+res.Written+res.Duplicates != n {
				t.Fatalf("resumed: %+v", res)
			}
			checkKeys(t, cl, db, n)
			// The run that follows counts on the keys and inserts after them.
			p3, _ := planFor(t, db)
			if _, err := cl.Prepare(context.Background(), p3, SetupOptions{Create: true}); err != nil {
				t.Fatal(err)
			}
			if _, end := p3.Collections[0].Keys.Bounds(); end != n {
				t.Fatalf("key count %d after the load, want %d", end, n)
			}
		})
	}
}

// TestLoadPartitionsTogether: three processes, each with its own client and
// compiled workload, load one collection concurrently, one partition each.
func TestLoadPartitionsTogether(t *testing.T) {
	setup := connectTest(t)
	p, db := plan(t, "")
	if _, err := setup.Prepare(context.Background(), p, SetupOptions{Create: true}); err != nil {
		t.Fatal(err)
	}
	const n = 30_001
	var wg sync.WaitGroup
	errs := make([]error, 3)
	finished := make([]bool, 3)
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cl := connectTest(t)
			pi, _ := planFor(t, db)
			if _, err := cl.Prepare(context.Background(), pi, SetupOptions{Create: true}); err != nil {
				errs[i] = err
				return
			}
			res, err := loader.Load(context.Background(), loader.NewInserter(cl, &config.WriteConcern{W: "1"}), loader.NewStore(cl), pi.Collections[0],
				loader.Options{Target: n, Part: i, Parts: 3, BatchSize: 400, Workers: 3})
			errs[i], finished[i] = err, res.LoadFinished
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("partition %d: %v", i, err)
		}
	}
	if !finished[0] && !finished[1] && !finished[2] {
		t.Fatal("no partition saw the load finished")
	}
	checkKeys(t, setup, db, n)
	rec, _ := loader.NewStore(setup).ReadLoad(context.Background(), p.Collections[0])
	if !rec.Finished || rec.Partitions != 3 {
		t.Fatalf("record %+v", rec)
	}
}

// TestLoadWriterDuplicates: documents already there are counted, the others
// inserted, as a redone chunk needs.
func TestLoadWriterDuplicates(t *testing.T) {
	cl := connectTest(t)
	p, db := plan(t, "")
	col := p.Collections[0]
	if _, err := cl.Prepare(context.Background(), p, SetupOptions{Create: true}); err != nil {
		t.Fatal(err)
	}
	docs := func(from, to int) [][]byte {
		var out [][]byte
		for k := from; k < to; k++ {
			b, _ := bson.Marshal(bson.D{{Key: "_id", Value: k}, {Key: "k", Value: k}})
			out = append(out, b)
		}
		return out
	}
	w := loader.NewInserter(cl, nil)
	if err := w.InsertDocs(context.Background(), col, docs(0, 10)); err != nil {
		t.Fatal(err)
	}
	err := w.InsertDocs(context.Background(), col, docs(5, 20))
	var de *loader.DuplicateError
	if !errors.As(err, &de) || de.Count != 5 || !strings.Contains(de.First, "duplicate") {
		t.Fatalf("redo of 5 existing and 10 new documents: %v", err)
	}
	if n, _ := cl.c.Database(db).Collection("c").CountDocuments(context.Background(), bson.D{}); n != 20 {
		t.Fatalf("%d documents, want 20", n)
	}
}

// TestWriteConcernElement: the load's command carries the write concern
// asked, else the connection's, else none.
func TestWriteConcernElement(t *testing.T) {
	yes := true
	tests := []struct {
		name string
		wc   *config.WriteConcern
		uri  string
		want string // "" for none
	}{
		// Nothing said anywhere: the server's default.
		{"none", nil, "mongodb://h", ""},
		// --load-write-concern wins over the URI.
		{"flag number", &config.WriteConcern{W: "2"}, "mongodb://h/?w=majority", `{"writeConcern": {"w": {"$numberInt":"2"}}}`},
		// A tag, with the workload's journal setting.
		{"flag tag and journal", &config.WriteConcern{W: "majority", J: &yes}, "mongodb://h", `{"writeConcern": {"w": "majority","j": true}}`},
		// Without one, the URI's w and journal, as insertMany would use them.
		{"from the uri", nil, "mongodb://h/?w=majority&journal=true", `{"writeConcern": {"w": "majority","j": true}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			el := writeConcernElement(tt.wc, tt.uri)
			if tt.want == "" {
				if el != nil {
					t.Fatalf("element %x, want none", el)
				}
				return
			}
			doc := append([]byte{0, 0, 0, 0}, el...)
			doc = append(doc, 0)
			doc[0] = byte(len(doc))
			if got := bson.Raw(doc).String(); got != tt.want {
				t.Fatalf("%s, want %s", got, tt.want)
			}
		})
	}
}

// planFor compiles plan's workload for database db: another process's view
// of the same collection.
func planFor(t *testing.T, db string) (*workload.Plan, string) {
	t.Helper()
	src := `
collections:
  - database: ` + db + `
    name: c
    template: {k: {$gen: key}, v: {$gen: int, min: 1, max: 5}}
    indexes:
      - keys: {k: 1}
        unique: true
operations:
  - {name: put, type: insertOne, weight: 1}
  - {name: get, type: findOne, weight: 1, filter: {k: {$gen: key}}}
`
	_, p := workloadtest.Compile(t, []byte(src), "t.yaml")
	return p, db
}
