package generate

import (
	"sync"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// TestSharedTemplates protects the concurrency contract under the race
// detector: compiled templates and key spaces are shared by workers, each
// with its own State, while inserts grow the key space that queries read.
func TestSharedTemplates(t *testing.T) {
	ks := NewKeySpace(0, 10)
	lookup := func(string) *KeySpace { return ks }
	insert, err := CompileDocument(parse(t, flightTemplate), &Env{Mode: Insert, KeySpace: lookup})
	if err != nil {
		t.Fatal(err)
	}
	query, err := CompileDocument(parse(t, `{a: {$gen: key, distribution: zipfian}, b: {$gen: key, distribution: latest}, c: {$gen: key, distribution: sequential}}`),
		&Env{Mode: Query, KeySpace: lookup})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			st := NewState(1, uint64(w))
			var buf []byte
			for range 200 {
				buf = insert.Append(buf[:0], st)
				buf = query.Append(buf[:0], st)
				if err := bson.Raw(buf).Validate(); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if _, end := ks.Bounds(); end != 10+4*200 {
		t.Errorf("end %d after 800 inserts into 10 keys", end)
	}
}
