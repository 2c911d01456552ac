package loader

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/generate"
	"github.com/mongoload/mongoload/internal/workload"
)

func quick(o Options) Options {
	o.SaveEvery, o.Interval = 5*time.Millisecond, 5*time.Millisecond
	return o
}

// TestLoadFillsExactly: a load writes keys [0, N) once each, records
// itself finished and leaves the key space at N.
func TestLoadFillsExactly(t *testing.T) {
	col, srv, store := testCollection(t, keyedTemplate), newFakeServer(), newMemStore()
	var last Progress
	res, err := Load(context.Background(), srv, store, col, quick(Options{Target: 10_000, BatchSize: 100, Workers: 4,
		OnProgress: func(p Progress) { last = p }}))
	if err != nil {
		t.Fatal(err)
	}
	srv.check(t, 10_000)
	if !res.LoadFinished || !res.PartFinished || res.Written != 10_000 || res.Duplicates != 0 {
		t.Fatalf("result %+v", res)
	}
	if !last.Final || last.Done() != 10_000 || last.Fraction() != 1 {
		t.Fatalf("last progress %+v", last)
	}
	if rec, _ := store.ReadLoad(context.Background(), col); !rec.Finished || rec.Written() != 10_000 {
		t.Fatalf("record %+v", rec)
	}
	if _, end := col.Keys.Bounds(); end != 10_000 {
		t.Fatalf("key space ends at %d", end)
	}
	// Loading again to the same target has nothing to do.
	res, err = Load(context.Background(), srv, store, col, quick(Options{Target: 10_000}))
	if err != nil || !res.Nothing {
		t.Fatalf("second load: %+v, %v", res, err)
	}
	// A larger target adds only the missing keys.
	if _, err = Load(context.Background(), srv, store, col, quick(Options{Target: 12_345, BatchSize: 1000})); err != nil {
		t.Fatal(err)
	}
	srv.check(t, 12_345)
}

// crashStore stops recording once crashed, like a process killed between
// two saves: the record lags behind what was written.
type crashStore struct {
	*memStore
	crashed bool
	mu      sync.Mutex
}

func (c *crashStore) SavePart(ctx context.Context, col *workload.Collection, gen int64, part int, ps PartState) error {
	c.mu.Lock()
	crashed := c.crashed
	c.mu.Unlock()
	if crashed {
		return nil
	}
	return c.memStore.SavePart(ctx, col, gen, part, ps)
}

// TestLoadResumes interrupts a load in the middle of a batch (half of it
// applied), with the record lagging behind (a crash), and checks that a
// resume finishes it without duplicates and without gaps.
func TestLoadResumes(t *testing.T) {
	for _, crash := range []bool{false, true} {
		name := map[bool]string{false: "interrupted", true: "crashed"}[crash]
		t.Run(name, func(t *testing.T) {
			col, srv := testCollection(t, keyedTemplate), newFakeServer()
			store := &crashStore{memStore: newMemStore()}
			ctx, cancel := context.WithCancel(context.Background())
			srv.hook = func(batch int, docs [][]byte) (int, error) {
				if batch == 25 {
					store.mu.Lock()
					store.crashed = crash
					store.mu.Unlock()
					cancel()
					return len(docs) / 2, context.Canceled
				}
				return len(docs), nil
			}
			_, err := Load(ctx, srv, store, col, quick(Options{Target: 20_000, BatchSize: 200, Workers: 4}))
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("interrupted load: %v", err)
			}
			srv.hook = nil
			store.crashed = false
			written := int64(len(srv.ids))
			if written == 0 || written >= 20_000 {
				t.Fatalf("%d documents written before the interruption", written)
			}
			// Without --resume the interrupted load is not silently redone.
			_, err = Load(context.Background(), srv, store, col, quick(Options{Target: 20_000}))
			if !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "--resume") {
				t.Fatalf("load over an interrupted one: %v", err)
			}
			res, err := Load(context.Background(), srv, store, col, quick(Options{Resume: true, BatchSize: 300, Workers: 3}))
			if err != nil {
				t.Fatal(err)
			}
			srv.check(t, 20_000)
			if !res.LoadFinished || res.Already+res.Written+res.Duplicates != 20_000 {
				t.Fatalf("resumed result %+v", res)
			}
			if res.Duplicates == 0 {
				t.Errorf("the half-applied batch was redone without meeting its documents")
			}
		})
	}
}

// TestLoadLeaseBoundsWork: after an interruption no key at or above the
// recorded lease was ever inserted, so fresh keys need no tolerance.
func TestLoadLeaseBoundsWork(t *testing.T) {
	col, srv, store := testCollection(t, keyedTemplate), newFakeServer(), newMemStore()
	ctx, cancel := context.WithCancel(context.Background())
	srv.hook = func(batch int, docs [][]byte) (int, error) {
		if batch == 10 {
			cancel()
		}
		return len(docs), nil
	}
	_, _ = Load(ctx, srv, store, col, quick(Options{Target: 1_000_000, BatchSize: 100, Workers: 2}))
	rec, _ := store.ReadLoad(context.Background(), col)
	lease := rec.Parts[0].Lease
	for k := range srv.keys {
		if k >= lease {
			t.Fatalf("key %d inserted at or above the lease %d", k, lease)
		}
	}
	if rec.Parts[0].Done.Len() != int64(len(srv.keys)) {
		t.Fatalf("record says %d keys done, the server has %d", rec.Parts[0].Done.Len(), len(srv.keys))
	}
}

// TestLoadPartitions: three processes load one collection together, each
// its own part, concurrently; the collection ends with every key once.
func TestLoadPartitions(t *testing.T) {
	srv, store := newFakeServer(), newMemStore()
	var wg sync.WaitGroup
	results := make([]Result, 3)
	errs := make([]error, 3)
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			col := testCollection(t, keyedTemplate) // each process compiles its own
			results[i], errs[i] = Load(context.Background(), srv, store, col, quick(Options{Target: 30_001, Part: i, Parts: 3, BatchSize: 500, Workers: 2}))
		}()
	}
	wg.Wait()
	finished := 0
	for i := range 3 {
		if errs[i] != nil {
			t.Fatalf("part %d: %v", i, errs[i])
		}
		if results[i].LoadFinished {
			finished++
		}
	}
	srv.check(t, 30_001)
	if finished == 0 {
		t.Fatal("no part saw the load finished")
	}
	if rec, _ := store.ReadLoad(context.Background(), testCollection(t, keyedTemplate)); !rec.Finished {
		t.Fatal("the record is not finished")
	}
}

// TestLoadRejectsDuplicatesInFreshKeys: a template whose _id repeats is an
// error naming the fix, not a silently short collection.
func TestLoadRejectsDuplicatesInFreshKeys(t *testing.T) {
	col, srv, store := testCollection(t, `{_id: {$gen: int, min: 0, max: 3}, k: {$gen: key}}`), newFakeServer(), newMemStore()
	_, err := Load(context.Background(), srv, store, col, quick(Options{Target: 100, BatchSize: 10, Workers: 1}))
	if err == nil || !strings.Contains(err.Error(), "unique") || !strings.Contains(err.Error(), "{$gen: key}") {
		t.Fatalf("duplicates in fresh keys: %v", err)
	}
}

// TestLoadDerivesMissingID: a template without _id gets one derived from
// the key, so a resume is idempotent for it too.
func TestLoadDerivesMissingID(t *testing.T) {
	col, srv, store := testCollection(t, `{k: {$gen: key}, v: {$gen: int}}`), newFakeServer(), newMemStore()
	ctx, cancel := context.WithCancel(context.Background())
	srv.hook = func(batch int, docs [][]byte) (int, error) {
		if batch == 3 {
			cancel()
			return len(docs) - 1, context.Canceled
		}
		return len(docs), nil
	}
	_, _ = Load(ctx, srv, store, col, quick(Options{Target: 5_000, BatchSize: 100, Workers: 2}))
	srv.hook = nil
	if _, err := Load(context.Background(), srv, store, col, quick(Options{Resume: true})); err != nil {
		t.Fatal(err)
	}
	srv.check(t, 5_000)
}

func TestPrependID(t *testing.T) {
	doc := bson.D{{Key: "a", Value: int32(1)}, {Key: "b", Value: "x"}}
	raw, _ := bson.Marshal(doc)
	buf := append([]byte("prefix"), raw...)
	buf = generate.PrependID(buf, len("prefix"), [12]byte{1, 2, 3})
	got := bson.Raw(buf[len("prefix"):])
	if err := got.Validate(); err != nil {
		t.Fatal(err)
	}
	elems, _ := got.Elements()
	if len(elems) != 3 || elems[0].Key() != "_id" || elems[1].Key() != "a" || elems[2].Value().StringValue() != "x" {
		t.Fatalf("document %s", got)
	}
	if string(buf[:6]) != "prefix" {
		t.Fatal("the bytes before the document moved")
	}
}

func TestDecide(t *testing.T) {
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	unfinished := &Record{Base: 0, Target: 100, Partitions: 2, Created: created, Parts: map[int]PartState{
		0: {Lease: 40, Done: Ranges{{0, 30}}},
		1: {Lease: 100, Done: Ranges{{50, 100}}, Finished: true},
	}}
	tests := []struct {
		name   string
		rec    *Record
		req    request
		want   action
		errHas string // "" means no error
	}{
		// No record: a new load, unless the collection already holds the target.
		{"new", nil, request{base: 0, target: 100, parts: 1}, actCreate, ""},
		{"already there", nil, request{base: 100, target: 100, parts: 1}, actNothing, ""},
		// Resume with nothing to resume and no target says what is missing.
		{"resume nothing", nil, request{parts: 1, resume: true}, 0, "--documents or --size"},
		// A finished load is history: the next one is new.
		{"after finished", &Record{Target: 100, Partitions: 1, Finished: true}, request{base: 100, target: 200, parts: 1}, actCreate, ""},
		// Resuming a load that is over has nothing to do.
		{"resume finished", &Record{Target: 100, Partitions: 1, Finished: true}, request{base: 100, parts: 1, resume: true}, actNothing, ""},
		// An unfinished load with another target is not mixed with a new one.
		{"other target", unfinished, request{target: 200, parts: 2}, 0, "--documents 100 --partition i/2"},
		// Nor with another partitioning.
		{"other partitions", unfinished, request{target: 100, parts: 3}, 0, "--resume"},
		// A started part needs --resume, and the message names the part.
		{"needs resume", unfinished, request{target: 100, part: 0, parts: 2}, 0, "--resume --partition 0/2"},
		{"resume", unfinished, request{target: 100, part: 0, parts: 2, resume: true}, actResume, ""},
		// --resume alone takes the record's target.
		{"resume own target", unfinished, request{part: 0, parts: 2, resume: true}, actResume, ""},
		// A finished part has nothing left.
		{"part done", unfinished, request{target: 100, part: 1, parts: 2}, actPartDone, ""},
		// A part nobody started joins without --resume.
		{"join", &Record{Target: 100, Partitions: 2, Parts: map[int]PartState{0: {}}}, request{target: 100, part: 1, parts: 2}, actJoin, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.req.ns = "db.c"
			got, err := decide(tt.rec, tt.req)
			switch {
			case tt.errHas == "" && err != nil:
				t.Fatalf("unexpected error %v", err)
			case tt.errHas != "" && (err == nil || !strings.Contains(err.Error(), tt.errHas) || !errors.Is(err, ErrConflict)):
				t.Fatalf("error %v, want one containing %q", err, tt.errHas)
			case err == nil && got != tt.want:
				t.Fatalf("action %d, want %d", got, tt.want)
			}
		})
	}
}

// TestLoadBatchesBoundedByBytes: with 7 KB documents a batch of the default
// 1,000 would be 7 MB per worker; batches stay within MaxBatchBytes (plus
// one document), while small documents keep the full count. The oracle is
// the byte size of each batch the server received.
func TestLoadBatchesBoundedByBytes(t *testing.T) {
	for _, tt := range []struct {
		name, template string
		wantFull       bool // every batch but the last holds BatchSize documents
	}{
		{"7KB documents", `{_id: {$gen: objectId}, k: {$gen: key}, blob: {$gen: string, length: 7000}}`, false},
		{"small documents", keyedTemplate, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			col, srv, store := testCollection(t, tt.template), newFakeServer(), newMemStore()
			var mu sync.Mutex
			var maxBytes, maxDocs, docSize int
			srv.hook = func(_ int, docs [][]byte) (int, error) {
				n := 0
				for _, d := range docs {
					n += len(d)
					docSize = max(docSize, len(d))
				}
				mu.Lock()
				maxBytes, maxDocs = max(maxBytes, n), max(maxDocs, len(docs))
				mu.Unlock()
				return len(docs), nil
			}
			const batch = 1000
			if _, err := Load(context.Background(), srv, store, col, quick(Options{Target: 3000, BatchSize: batch, Workers: 2})); err != nil {
				t.Fatal(err)
			}
			srv.check(t, 3000)
			if maxBytes > MaxBatchBytes+docSize {
				t.Errorf("a batch of %d bytes (%d documents of up to %d bytes): want at most %d", maxBytes, maxDocs, docSize, MaxBatchBytes+docSize)
			}
			if tt.wantFull != (maxDocs == batch) {
				t.Errorf("largest batch %d documents of %d bytes each, batch size %d", maxDocs, docSize, batch)
			}
		})
	}
}
