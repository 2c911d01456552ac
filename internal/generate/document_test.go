package generate

import (
	"bytes"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// doc builds a bson.D from alternating keys and values.
func doc(kv ...any) bson.D {
	d := bson.D{}
	for i := 0; i+1 < len(kv); i += 2 {
		d = append(d, bson.E{Key: kv[i].(string), Value: kv[i+1]})
	}
	return d
}

// TestLiterals protects the encoding of template scalars and containers:
// the same bytes the driver would produce, ints as int32 when they fit.
func TestLiterals(t *testing.T) {
	when := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	tests := []struct {
		name string
		src  string
		want bson.D
	}{
		// small integers are int32, large ones int64
		{"ints", "{a: 1, b: -2147483648, c: 2147483648}", doc("a", int32(1), "b", int32(-2147483648), "c", int64(2147483648))},
		// the other scalars, null included
		{"scalars", "{s: hi, f: 1.5, t: true, n: null, d: 2024-05-06T07:08:09Z}", doc("s", "hi", "f", 1.5, "t", true, "n", nil, "d", bson.NewDateTimeFromTime(when))},
		// $-prefixed keys are ordinary keys, and key order is kept
		{"operators", "{$set: {z: 1, a: 2}, $inc: {n: 1}}", doc("$set", doc("z", int32(1), "a", int32(2)), "$inc", doc("n", int32(1)))},
		// arrays, nested and empty
		{"arrays", "{a: [1, [x], [], {}]}", doc("a", bson.A{int32(1), bson.A{"x"}, bson.A{}, doc()})},
		// the empty document
		{"empty", "{}", doc()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := CompileDocument(parse(t, tt.src), nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := asLiteral(d.g); !ok {
				t.Errorf("a template without generators compiled to %T, not a literal", d.g)
			}
			want, err := bson.Marshal(tt.want)
			if err != nil {
				t.Fatal(err)
			}
			if got := d.Append(nil, NewState(1, 1)); !bytes.Equal(got, want) {
				t.Errorf("got  %v\nwant %v", bson.Raw(got), bson.Raw(want))
			}
		})
	}
}

// TestMixedDocument protects the merging of literal runs around generated
// fields: order is kept, literal parts are copied verbatim, and nested
// generators are reached at any depth.
func TestMixedDocument(t *testing.T) {
	src := `
a: 1
b: {$gen: int, min: 5, max: 5}
c: x
d: {e: [1, {f: {$gen: bool, probability: 1}}], g: 2}
h: last`
	d, err := CompileDocument(parse(t, src), testEnv(Insert))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := bson.Marshal(doc("a", int32(1), "b", int32(5), "c", "x", "d", doc("e", bson.A{int32(1), doc("f", true)}, "g", int32(2)), "h", "last"))
	st := NewState(1, 1)
	buf := []byte("prefix")
	for range 3 {
		got := d.Append(buf[:6], st)
		if !bytes.Equal(got[6:], want) {
			t.Fatalf("got  %v\nwant %v", bson.Raw(got[6:]), bson.Raw(want))
		}
		buf = got
	}
}

// TestArrayTemplate protects CompileArray, used for pipelines.
func TestArrayTemplate(t *testing.T) {
	a, err := CompileArray(parse(t, `[{$match: {k: {$gen: key}}}, {$limit: 5}]`), testEnv(Query))
	if err != nil {
		t.Fatal(err)
	}
	got := bson.RawArray(a.Append(nil, NewState(1, 1)))
	if err := got.Validate(); err != nil {
		t.Fatal(err)
	}
	vals, _ := got.Values()
	if len(vals) != 2 || vals[1].Document().Lookup("$limit").Int32() != 5 {
		t.Fatalf("pipeline %v", got)
	}
	if k := vals[0].Document().Lookup("$match", "k").Int64(); k < 0 || k >= 100 {
		t.Errorf("key %d outside [0, 100)", k)
	}
}

// TestArrayCap protects the memory bound: an array stops growing past the
// BSON document limit instead of exhausting memory.
func TestArrayCap(t *testing.T) {
	g := compile(t, `{$gen: array, length: 100000, of: {$gen: array, length: 100000, of: {$gen: binary, length: 1000}}}`, nil)
	typ, b := g.Append(nil, NewState(1, 1))
	if typ != bson.TypeArray || len(b) > 3*maxBSONSize {
		t.Fatalf("type %v, %d bytes", typ, len(b))
	}
	if err := bson.RawArray(b).Validate(); err != nil {
		t.Fatal(err)
	}
}
