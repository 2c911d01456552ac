package generate

import (
	"strconv"
	"sync"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// TestKeyModes protects the meaning of the key generator in each mode:
// inserts take new keys at the end of the key space, queries draw existing
// ones, and keys inserted during the run become reachable.
func TestKeyModes(t *testing.T) {
	ks := NewKeySpace(10, 5) // keys 10..14 exist
	env := &Env{KeySpace: func(string) *KeySpace { return ks }}
	env.Mode = Insert
	ins := compile(t, `{$gen: key}`, env)
	env.Mode = Query
	qry := compile(t, `{$gen: key, distribution: sequential}`, env)
	st := NewState(1, 1)

	for want := int64(15); want < 18; want++ {
		if got := draw(t, ins, st).Int64(); got != want {
			t.Fatalf("insert got %d, want %d", got, want)
		}
	}
	if first, end := ks.Bounds(); first != 10 || end != 18 {
		t.Fatalf("bounds [%d, %d), want [10, 18)", first, end)
	}
	seen := map[int64]bool{}
	for range 16 {
		seen[draw(t, qry, st).Int64()] = true
	}
	for k := int64(10); k < 18; k++ {
		if !seen[k] {
			t.Errorf("query never reached key %d (inserted keys must become reachable)", k)
		}
	}
	if len(seen) != 8 {
		t.Errorf("query reached %v, outside [10, 18)", seen)
	}
}

// TestKeyForms protects how keys are written and where they come from.
func TestKeyForms(t *testing.T) {
	tests := []struct {
		name string
		src  string
		mode Mode
		typ  bson.Type
		lo   int64 // expected range of the key
		hi   int64
	}{
		// the default: an existing key of the own collection, as int64
		{"query long", `{$gen: key}`, Query, bson.TypeInt64, 0, 99},
		// as: int gives int32 while keys fit
		{"query int", `{$gen: key, as: int}`, Query, bson.TypeInt32, 0, 99},
		// another collection's key space
		{"other collection", `{$gen: key, collection: users}`, Query, bson.TypeInt64, 1000, 1049},
		// zipfian stays in range
		{"zipfian", `{$gen: key, distribution: zipfian}`, Query, bson.TypeInt64, 0, 99},
		// latest stays in range too
		{"latest", `{$gen: key, distribution: latest}`, Query, bson.TypeInt64, 0, 99},
		// inserts ignore the distribution and append
		{"insert", `{$gen: key, distribution: zipfian}`, Insert, bson.TypeInt64, 100, 1000},
		// the plain zipfian and its parameters
		{"plain zipfian", `{$gen: key, distribution: zipfian, scrambled: false}`, Query, bson.TypeInt64, 0, 99},
		// hotspot with its fractions
		{"hotspot", `{$gen: key, distribution: hotspot, hotDataFraction: 0.1, hotOpnFraction: 0.9}`, Query, bson.TypeInt64, 0, 99},
		// exponential with its percentile and fraction
		{"exponential", `{$gen: key, distribution: exponential, percentile: 90, fraction: 0.5}`, Query, bson.TypeInt64, 0, 99},
		// offset shifts every key (YCSB's insertstart)
		{"offset", `{$gen: key, offset: 500}`, Query, bson.TypeInt64, 500, 599},
	}
	st := NewState(3, 4)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := compile(t, tt.src, testEnv(tt.mode))
			for range 500 {
				v := draw(t, g, st)
				k, _ := v.AsInt64OK()
				if v.Type != tt.typ || k < tt.lo || k > tt.hi {
					t.Fatalf("got %v %d, want %v in [%d, %d]", v.Type, k, tt.typ, tt.lo, tt.hi)
				}
			}
		})
	}
}

// TestKeyEmpty protects the empty key space: queries get its first key
// rather than a panic.
func TestKeyEmpty(t *testing.T) {
	for _, dist := range distributionNames() {
		ks := NewKeySpace(7, 0)
		g := compile(t, `{$gen: key, distribution: `+dist+`}`, &Env{KeySpace: func(string) *KeySpace { return ks }})
		if k := draw(t, g, NewState(1, 1)).Int64(); k != 7 {
			t.Errorf("%s: got %d from an empty key space, want 7", dist, k)
		}
	}
}

// TestKeySpaceConcurrent protects Next under concurrency: every key is
// handed out exactly once.
func TestKeySpaceConcurrent(t *testing.T) {
	ks := NewKeySpace(0, 0)
	const workers, each = 8, 1000
	got := make([][]int64, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for range each {
				got[w] = append(got[w], ks.Next())
			}
		})
	}
	wg.Wait()
	seen := make(map[int64]bool, workers*each)
	for _, keys := range got {
		for _, k := range keys {
			if seen[k] {
				t.Fatalf("key %d handed out twice", k)
			}
			seen[k] = true
		}
	}
	if _, end := ks.Bounds(); end != workers*each {
		t.Fatalf("end %d, want %d", end, workers*each)
	}
}

// TestYCSBKeys protects YCSB's record keys (CoreWorkload.buildKeyName):
// "user", then the record number, FNV-hashed unless inserts are ordered,
// left-padded with zeros to zeroPadding digits.
func TestYCSBKeys(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // the keys of the first inserts, from record 0
	}{
		// insertorder=hashed, zeropadding=1: YCSB's own first keys
		{"hashed", `{$gen: key, hashed: true, prefix: user, zeroPadding: 1}`,
			[]string{"user6284781860667377211", "user8517097267634966620", "user1820151046732198393"}},
		// insertorder=ordered, zeropadding=8: the example of YCSB's docs
		{"ordered padded", `{$gen: key, prefix: user, zeroPadding: 8}`,
			[]string{"user00000000", "user00000001", "user00000002"}},
		// padding shorter than the number changes nothing
		{"short padding", `{$gen: key, prefix: user, zeroPadding: 1, offset: 10}`,
			[]string{"user10", "user11", "user12"}},
		// insertstart=1: keys start at record 1
		{"hashed offset", `{$gen: key, hashed: true, prefix: user, offset: 1}`,
			[]string{"user8517097267634966620", "user1820151046732198393", "user4052466453699787802"}},
		// hashed numbers as long
		{"hashed long", `{$gen: key, hashed: true, as: long}`,
			[]string{"6284781860667377211", "8517097267634966620", "1820151046732198393"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ks := NewKeySpace(0, 0)
			g := compile(t, tt.src, &Env{Mode: Insert, KeySpace: func(string) *KeySpace { return ks }})
			st := NewState(1, 1)
			for i, want := range tt.want {
				v := draw(t, g, st)
				got, ok := v.StringValueOK()
				if !ok {
					got = strconv.FormatInt(v.Int64(), 10)
				}
				if got != want {
					t.Errorf("record %d: key %q, want %q", i, got, want)
				}
			}
		})
	}
}

// TestKeyAllocatesNothing: drawing a YCSB key costs no allocation.
func TestKeyAllocatesNothing(t *testing.T) {
	ks := NewKeySpace(0, 1000)
	g := compile(t, `{$gen: key, distribution: zipfian, hashed: true, prefix: user, zeroPadding: 1}`,
		&Env{Mode: Query, KeySpace: func(string) *KeySpace { return ks }})
	st := NewState(1, 1)
	buf := make([]byte, 0, 64)
	if a := testing.AllocsPerRun(1000, func() { _, buf = g.Append(buf[:0], st) }); a > 0 {
		t.Errorf("%.1f allocations per key", a)
	}
}

// TestSettledFrontierConcurrent: with many goroutines holding and settling
// keys in any order, the frontier never passes a held key, and ends at the
// last key once all are settled.
func TestSettledFrontierConcurrent(t *testing.T) {
	ks := NewKeySpace(0, 0)
	const workers, each = 8, 2000
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				k := ks.hold()
				if _, end := ks.Settled(); end > k {
					t.Errorf("frontier %d passed held key %d", end, k)
					return
				}
				ks.settle(k)
			}
		}()
	}
	wg.Wait()
	if _, end := ks.Settled(); end != workers*each {
		t.Fatalf("frontier %d after every key settled, want %d", end, workers*each)
	}
}

// TestForeignKeyInInsert: in a new document, a key of another collection
// refers to an existing document of it; only the own key space grows.
func TestForeignKeyInInsert(t *testing.T) {
	env := testEnv(Insert)
	doc, err := CompileDocument(parse(t, `{own: {$gen: key}, ref: {$gen: key, collection: users}}`), env)
	if err != nil {
		t.Fatal(err)
	}
	users := env.KeySpace("users")
	_, before := users.Bounds()
	st := NewState(1, 1)
	for i := 0; i < 100; i++ {
		d := bson.Raw(doc.Append(nil, st))
		ref := d.Lookup("ref").AsInt64()
		if ref < 1000 || ref >= 1050 {
			t.Fatalf("foreign key %d outside users' existing keys [1000, 1050)", ref)
		}
	}
	if _, after := users.Bounds(); after != before {
		t.Fatalf("the referenced collection's key space grew from %d to %d", before, after)
	}
	if _, own := env.KeySpace("").Bounds(); own != 200 {
		t.Fatalf("own key space end %d after 100 inserts, want 200", own)
	}
}
