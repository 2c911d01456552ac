package generate

import (
	"bytes"
	"fmt"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// everyGenerator is one template per generator of the registry: the
// generator alone where it needs no parameter, else with the least it needs.
func everyGenerator(t *testing.T) map[string]string {
	t.Helper()
	needs := map[string]string{
		"pattern":    `{$gen: pattern, pattern: "AB-##??"}`,
		"faker":      `{$gen: faker, provider: hackerphrase}`,
		"enum":       `{$gen: enum, values: [a, 2, {c: 3}], weights: [1, 2, 3]}`,
		"range":      `{$gen: range, lower: {$gen: int, min: 0, max: 100}, width: 10}`,
		"array":      `{$gen: array, of: {$gen: int}, min: 0, max: 4}`,
		"regex":      `{$gen: regex, pattern: "^a.c"}`,
		"javascript": `{$gen: javascript, code: "function() { return 1 }"}`,
		"var":        `{$gen: var, name: amount}`,
	}
	out := map[string]string{}
	for _, name := range Names() {
		src, ok := needs[name]
		if !ok {
			src = fmt.Sprintf("{$gen: %s}", name)
		}
		out[name] = src
	}
	return out
}

// makeDocs builds, from a fresh compilation (fresh value pools), 40 documents
// {v: <the generator>} of keys 0..39 in one state: loaded (BeginDocument,
// as mongoload load and --seed make documents) or not (as a run's worker).
func makeDocs(t *testing.T, name, src string, seed, stream uint64, load bool) []byte {
	t.Helper()
	env := testEnv(Insert)
	env.Seed = seed
	d, err := CompileDocument(parse(t, "{s: {$gen: series, count: 3}, v: "+src+"}"), env)
	if err != nil {
		t.Fatalf("%s (%s): %v", name, src, err)
	}
	st := NewState(seed, stream)
	st.Vars = []Var{{}}
	var out []byte
	for key := range int64(40) {
		if load {
			st.BeginDocument(env.KeySpace(""), key, seed, LoadEpoch(seed))
		}
		out = d.Append(out, st)
	}
	return out
}

// TestSameSeedSameDocuments: every generator, built twice with one seed,
// gives the same bytes; a load's documents are the same whatever the
// worker's stream (the document of a key is a function of the key and
// the seed). Outside a load, now, timestamp and cycle (whose time is now's
// without a seriesTime) follow the clock: an operation's time is when it
// is made (docs/generators.md, Reproducibility).
func TestSameSeedSameDocuments(t *testing.T) {
	clock := map[string]bool{"now": true, "timestamp": true, "cycle": true}
	for name, src := range everyGenerator(t) {
		a, b := makeDocs(t, name, src, 7, 1, true), makeDocs(t, name, src, 7, 2, true)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: one seed loaded twice gave different documents:\n%v\n%v", name, firstDoc(a), firstDoc(b))
		}
		if clock[name] {
			continue
		}
		if a, b := makeDocs(t, name, src, 7, 3, false), makeDocs(t, name, src, 7, 3, false); !bytes.Equal(a, b) {
			t.Errorf("%s: one seed and stream gave a run's worker different documents:\n%v\n%v", name, firstDoc(a), firstDoc(b))
		}
	}
}

func firstDoc(b []byte) bson.Raw {
	n := int(b[0]) | int(b[1])<<8 | int(b[2])<<16 | int(b[3])<<24
	return bson.Raw(b[:n])
}

// TestLoadedClockValues: in a load, objectId, now and timestamp stand for
// the load's epoch, which its seed fixes (not the clock), plus the key.
func TestLoadedClockValues(t *testing.T) {
	env := testEnv(Insert)
	d, err := CompileDocument(parse(t, "{_id: {$gen: objectId}, at: {$gen: now}, ts: {$gen: timestamp}}"), env)
	if err != nil {
		t.Fatal(err)
	}
	epoch := LoadEpoch(7)
	if epoch < 1577836800 || epoch >= 1577836800+1<<26 {
		t.Fatalf("LoadEpoch(7) = %d, outside [2020-01-01, 2022-02-16)", epoch)
	}
	if LoadEpoch(8) == epoch {
		t.Errorf("seeds 7 and 8 share the epoch %d", epoch)
	}
	st := NewState(1, 1)
	st.BeginDocument(env.KeySpace(""), 1234, 7, epoch)
	raw := bson.Raw(d.Append(nil, st))
	if got := raw.Lookup("_id").ObjectID().Timestamp().Unix(); got != int64(epoch) {
		t.Errorf("_id's timestamp %d, want the epoch %d", got, epoch)
	}
	if got, want := raw.Lookup("at").DateTime(), int64(epoch)*1000+1234; got != want {
		t.Errorf("now %d, want epoch + key ms %d", got, want)
	}
	if sec, inc := raw.Lookup("ts").Timestamp(); sec != epoch+1 || inc != 1 {
		t.Errorf("timestamp (%d, %d), want (%d, 1)", sec, inc, epoch+1)
	}
}

// TestRunObjectIDs: a run's worker makes its ObjectIds from the operation
// seed and its stream: the same for one seed, distinct across the workers
// of a run and across seeds, after every load's epoch, and ascending.
func TestRunObjectIDs(t *testing.T) {
	ids := func(seed, stream uint64) []bson.ObjectID {
		st := NewState(seed, stream)
		out := make([]bson.ObjectID, 1000)
		for i := range out {
			out[i] = st.objectID()
		}
		return out
	}
	seen := map[bson.ObjectID]string{}
	for _, s := range []struct{ seed, stream uint64 }{{5, 1}, {5, 2}, {5, 3}, {5, 1 << 40}, {5, 1 << 41}, {6, 1}, {6, 2}} {
		got := ids(s.seed, s.stream)
		if again := ids(s.seed, s.stream); fmt.Sprint(again) != fmt.Sprint(got) {
			t.Fatalf("seed %d stream %d: two makings differ", s.seed, s.stream)
		}
		for i, oid := range got {
			who := fmt.Sprintf("seed %d stream %d", s.seed, s.stream)
			if prev, ok := seen[oid]; ok {
				t.Fatalf("%s made %v, as %s did", who, oid, prev)
			}
			seen[oid] = who
			if i > 0 && bytes.Compare(oid[:], got[i-1][:]) <= 0 {
				t.Fatalf("%s: %v after %v", who, oid, got[i-1])
			}
			if ts := oid.Timestamp().Unix(); ts < 1577836800+1<<26 {
				t.Fatalf("%s: timestamp %d within the loads' epochs", who, ts)
			}
		}
	}
}
