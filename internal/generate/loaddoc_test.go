package generate

import (
	"bytes"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

const loadTemplate = `
_id: {$gen: objectId}
k: {$gen: key}
name: {$gen: string, length: 12}
n: {$gen: int, min: 0, max: 1000000}
tags: {$gen: array, length: 2, of: {oid: {$gen: objectId}}}
`

// TestBeginDocumentIsAFunctionOfTheKey protects resumable loads: the
// document of a key is the same whichever worker state makes it, after
// whatever that state made before, so redoing a range writes nothing new.
func TestBeginDocumentIsAFunctionOfTheKey(t *testing.T) {
	env := testEnv(Insert)
	ks := env.KeySpace("")
	d, err := CompileDocument(parse(t, loadTemplate), env)
	if err != nil {
		t.Fatal(err)
	}
	a, b := NewState(1, 1), NewState(7, 99)
	b.Rand.Uint64() // b is somewhere else in its stream
	_, end := ks.Bounds()
	for _, key := range []int64{0, 1, 12345, 1 << 40} {
		a.BeginDocument(ks, key, 5, 1700000000)
		da := d.Append(nil, a)
		b.BeginDocument(ks, key, 5, 1700000000)
		db := d.Append(nil, b)
		if !bytes.Equal(da, db) {
			t.Fatalf("key %d: two makings differ:\n%v\n%v", key, bson.Raw(da), bson.Raw(db))
		}
		raw := bson.Raw(da)
		if got := raw.Lookup("k").Int64(); got != key {
			t.Errorf("key field %d, want the pinned key %d", got, key)
		}
		if got, want := raw.Lookup("_id").ObjectID(), LoadObjectID(1700000000, key); got != want {
			t.Errorf("_id %s, want %s derived from the key", got.Hex(), want.Hex())
		}
		tags, _ := raw.Lookup("tags").Array().Values()
		if tags[0].Document().Lookup("oid").ObjectID() == tags[1].Document().Lookup("oid").ObjectID() {
			t.Errorf("key %d: two ObjectIds of one document are equal", key)
		}
	}
	if _, e := ks.Bounds(); e != end {
		t.Errorf("pinned keys moved the key space from %d to %d", end, e)
	}
	a.EndDocuments()
	raw := bson.Raw(d.Append(nil, a))
	if got := raw.Lookup("k").Int64(); got != end {
		t.Errorf("after EndDocuments the key is %d, want a new key %d", got, end)
	}
}

// TestBeginDocumentDiffersByKeyAndSeed: neighbouring keys and seeds give
// unrelated documents (the reseeding mixes its inputs).
func TestBeginDocumentDiffersByKeyAndSeed(t *testing.T) {
	env := testEnv(Insert)
	ks := env.KeySpace("")
	g := compile(t, `{$gen: long}`, env)
	st := NewState(1, 1)
	seen := map[int64]bool{}
	for seed := uint64(0); seed < 4; seed++ {
		for key := int64(0); key < 256; key++ {
			st.BeginDocument(ks, key, seed, 0)
			v := draw(t, g, st).Int64()
			if seen[v] {
				t.Fatalf("seed %d key %d repeats a value", seed, key)
			}
			seen[v] = true
		}
	}
}

// BenchmarkLoadDocument is BenchmarkFlightDocument with the per-key
// reseeding of a load: it must not allocate either.
func BenchmarkLoadDocument(b *testing.B) {
	d := flightDocument(b)
	ks := NewKeySpace(0, 0)
	st := NewState(1, 1)
	buf := d.Append(nil, st)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st.BeginDocument(ks, int64(i), 1, 1700000000)
		buf = d.Append(buf[:0], st)
	}
	b.SetBytes(int64(len(buf)))
}
