package mongodb

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/generate"
	"github.com/mongoload/mongoload/internal/workload"
)

// TestNextKeyFromWhatTheCollectionHolds is issue 25 #2: a run killed in
// its measured phase inserted keys past the count it never recorded, and
// the next run's inserts collided with them (DuplicateKey). Setup now
// reads where the keys end from the collection itself, with a notice. The
// oracle is the number of documents the test inserted (through the
// template's own generator, in every key form), holes included.
func TestNextKeyFromWhatTheCollectionHolds(t *testing.T) {
	cl := connectTest(t)
	ctx := context.Background()
	tests := []struct {
		name, template, indexes string
		inserted                int64
		holes                   []int64 // keys deleted after the insert
		probed                  bool    // false: no unique key field, the record stands
	}{
		{"_id long", `{_id: {$gen: key}, v: 1}`, "", 5000, nil, true},
		{"_id hashed string", `{_id: {$gen: key, as: string, prefix: user, hashed: true}, v: 1}`, "", 777, []int64{100, 101, 500}, true},
		{"unique index, offset", `{k: {$gen: key, offset: 1000}, v: 1}`, "[{keys: {k: 1}, unique: true}]", 65, []int64{63}, true},
		{"a single key past the record", `{_id: {$gen: key}}`, "", 1, nil, true},
		{"no unique index: the record stands", `{k: {$gen: key}, v: 1}`, "[{keys: {k: 1}}]", 300, nil, false},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := fmt.Sprintf("mlkeys_%d_%d", time.Now().UnixNano(), i)
			p := keyPlan(t, db, tt.template, tt.indexes)
			col := p.Collections[0]
			if _, err := cl.Prepare(ctx, p, SetupOptions{Create: true}); err != nil {
				t.Fatal(err)
			}
			// A run that inserted and was killed: nothing recorded.
			coll := cl.c.Database(db).Collection("c")
			st := generate.NewState(1, 1)
			var docs []any
			for range tt.inserted {
				docs = append(docs, bson.Raw(col.Doc.Append(nil, st)))
			}
			if _, err := coll.InsertMany(ctx, docs); err != nil {
				t.Fatal(err)
			}
			f, _ := col.Doc.KeyField()
			for _, k := range tt.holes {
				if _, err := coll.DeleteOne(ctx, bson.D{{Key: f.Name, Value: docs[k].(bson.Raw).Lookup(f.Name)}}); err != nil {
					t.Fatal(err)
				}
			}
			p = keyPlan(t, db, tt.template, tt.indexes) // the next run
			notices, err := cl.Prepare(ctx, p, SetupOptions{Create: true})
			if err != nil {
				t.Fatal(err)
			}
			_, end := p.Collections[0].Keys.Bounds()
			want := tt.inserted
			if !tt.probed {
				want = 0
			}
			if end != want {
				t.Errorf("the next key is %d, want %d (the collection holds keys 0..%d)", end, want, tt.inserted-1)
			}
			said := strings.Contains(strings.Join(notices, "\n"), "past the 0 mongoload recorded")
			if said != tt.probed {
				t.Errorf("notice given: %v, want %v: %q", said, tt.probed, notices)
			}
			if !tt.probed {
				return
			}
			// The next insert does not collide.
			if _, err := coll.InsertOne(ctx, bson.Raw(p.Collections[0].Doc.Append(nil, generate.NewState(2, 2)))); err != nil {
				t.Errorf("the next run's first insert: %v", err)
			}
		})
	}
}

func keyPlan(t *testing.T, db, template, indexes string) *workload.Plan {
	t.Helper()
	if indexes == "" {
		indexes = "[]"
	}
	return compile(t, fmt.Sprintf("collections:\n  - {database: %s, name: c, template: %s, indexes: %s}\noperations:\n  - {name: put, type: insertOne, weight: 1}\n", db, template, indexes))
}
