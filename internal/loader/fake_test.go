package loader

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/workload"
	"github.com/mongoload/mongoload/internal/workload/workloadtest"
)

// memStore is a Store in memory, with the server's atomicity: each call
// is one atomic read or write of the record.
type memStore struct {
	mu   sync.Mutex
	recs map[string]*Record
	keys map[string]int64 // the collections' key counts (meta "keys")
}

func newMemStore() *memStore {
	return &memStore{recs: map[string]*Record{}, keys: map[string]int64{}}
}

func copyRecord(r *Record) *Record {
	if r == nil {
		return nil
	}
	c := *r
	c.Parts = map[int]PartState{}
	for i, p := range r.Parts {
		p.Done = append(Ranges(nil), p.Done...)
		c.Parts[i] = p
	}
	return &c
}

func (m *memStore) ReadLoad(_ context.Context, col *workload.Collection) (*Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return copyRecord(m.recs[col.Namespace()]), nil
}

func (m *memStore) CreateLoad(_ context.Context, col *workload.Collection, rec *Record, replacing int64) (*Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	cur := m.recs[col.Namespace()]
	if (cur == nil && replacing == 0) || (cur != nil && cur.Generation == replacing) {
		m.recs[col.Namespace()] = copyRecord(rec)
		m.keys[col.Namespace()] = max(m.keys[col.Namespace()], rec.Target)
		return copyRecord(rec), nil
	}
	return copyRecord(cur), nil
}

func (m *memStore) SavePart(_ context.Context, col *workload.Collection, gen int64, part int, ps PartState) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	cur := m.recs[col.Namespace()]
	if cur == nil || cur.Generation != gen {
		return fmt.Errorf("the load record of %s was replaced", col.Namespace())
	}
	ps.Done = append(Ranges(nil), ps.Done...)
	cur.Parts[part] = ps
	return nil
}

func (m *memStore) FinishLoad(_ context.Context, col *workload.Collection, gen int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if cur := m.recs[col.Namespace()]; cur != nil && cur.Generation == gen {
		cur.Finished = true
	}
	return nil
}

// fakeServer is a collection with a unique _id, and optionally a unique
// index on "k", that inserts unordered batches like the server: every
// document that does not collide goes in.
type fakeServer struct {
	mu      sync.Mutex
	ids     map[string]bool
	keys    map[int64]int // inserted documents per value of k
	batches int
	// hook runs before each batch is applied; it may cancel the load or
	// ask to apply only the first n documents and fail (a cut connection).
	hook func(batch int, docs [][]byte) (apply int, err error)
}

func newFakeServer() *fakeServer {
	return &fakeServer{ids: map[string]bool{}, keys: map[int64]int{}}
}

func (f *fakeServer) InsertDocs(_ context.Context, _ *workload.Collection, docs [][]byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.batches++
	apply, failure := len(docs), error(nil)
	if f.hook != nil {
		apply, failure = f.hook(f.batches, docs)
	}
	var dup *DuplicateError
	for _, d := range docs[:apply] {
		id := bson.Raw(d).Lookup("_id")
		key := string(id.Value) + id.Type.String()
		if f.ids[key] {
			if dup == nil {
				dup = &DuplicateError{First: "E11000 duplicate key error: _id " + id.String()}
			}
			dup.Count++
			continue
		}
		f.ids[key] = true
		if k, ok := bson.Raw(d).Lookup("k").AsInt64OK(); ok {
			f.keys[k]++
		}
	}
	if failure != nil {
		return failure
	}
	if dup != nil {
		return dup
	}
	return nil
}

// check verifies that the collection holds exactly keys [0, n), once each.
func (f *fakeServer) check(t *testing.T, n int64) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if int64(len(f.ids)) != n {
		t.Errorf("%d documents, want %d", len(f.ids), n)
	}
	for k := int64(0); k < n; k++ {
		if c := f.keys[k]; c != 1 {
			t.Fatalf("key %d is there %d times, want once", k, c)
		}
	}
	if int64(len(f.keys)) != n {
		t.Errorf("%d distinct keys, want %d", len(f.keys), n)
	}
}

// testCollection compiles a one-collection workload around template.
func testCollection(t testing.TB, template string) *workload.Collection {
	t.Helper()
	src := fmt.Sprintf(`
collections:
  - database: db
    name: c
    template: %s
operations:
  - {name: get, type: findOne, weight: 1, filter: {k: {$gen: key}}}
`, template)
	_, p := workloadtest.Compile(t, []byte(src), "t.yaml")
	return p.Collections[0]
}

const keyedTemplate = `{_id: {$gen: objectId}, k: {$gen: key}, v: {$gen: string, length: 20}}`
