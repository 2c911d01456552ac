package generate

import (
	"bytes"
	"math"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// TestProbabilities protects nullProbability, missingProbability, bool's
// probability and enum weights: over many draws each rate lands near its
// setting (within 5 standard deviations, so the test does not flake).
func TestProbabilities(t *testing.T) {
	const n = 20000
	tests := []struct {
		name string
		src  string
		want float64
		hit  func(doc bson.Raw) bool
	}{
		// the value is null about 30% of the time
		{"null", `{v: {$gen: int, nullProbability: 0.3}}`, 0.3, func(d bson.Raw) bool { return d.Lookup("v").Type == bson.TypeNull }},
		// the field is absent about 20% of the time
		{"missing", `{v: {$gen: int, missingProbability: 0.2}, w: 1}`, 0.2, func(d bson.Raw) bool { _, err := d.LookupErr("v"); return err != nil }},
		// both together: missing first, then null among the rest
		{"missing then null", `{v: {$gen: int, missingProbability: 0.5, nullProbability: 0.5}}`, 0.25, func(d bson.Raw) bool {
			v, err := d.LookupErr("v")
			return err == nil && v.Type == bson.TypeNull
		}},
		// missingProbability applies to generators that compile to constants too
		{"missing constant", `{v: {$gen: minKey, missingProbability: 0.4}}`, 0.4, func(d bson.Raw) bool { _, err := d.LookupErr("v"); return err != nil }},
		// bool is true at its probability
		{"bool", `{v: {$gen: bool, probability: 0.9}}`, 0.9, func(d bson.Raw) bool { return d.Lookup("v").Boolean() }},
		// weights 1:3 make the second value 75% likely
		{"weights", `{v: {$gen: enum, values: [a, b], weights: [1, 3]}}`, 0.75, func(d bson.Raw) bool { return d.Lookup("v").StringValue() == "b" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := CompileDocument(parse(t, tt.src), nil)
			if err != nil {
				t.Fatal(err)
			}
			st := NewState(9, 9)
			hits := 0
			var buf []byte
			for range n {
				buf = d.Append(buf[:0], st)
				if err := bson.Raw(buf).Validate(); err != nil {
					t.Fatal(err)
				}
				if tt.hit(buf) {
					hits++
				}
			}
			sd := math.Sqrt(tt.want * (1 - tt.want) / n)
			if got := float64(hits) / n; math.Abs(got-tt.want) > 5*sd {
				t.Errorf("rate %.4f, want %.2f ± %.4f", got, tt.want, 5*sd)
			}
		})
	}
}

// TestNullExtremes protects the ends of nullProbability: 1 is always null,
// 0 never.
func TestNullExtremes(t *testing.T) {
	st := NewState(1, 1)
	if v := draw(t, compile(t, `{$gen: int, nullProbability: 1}`, nil), st); v.Type != bson.TypeNull {
		t.Errorf("nullProbability 1 gave %v", v.Type)
	}
	if v := draw(t, compile(t, `{$gen: int, nullProbability: 0}`, nil), st); v.Type != bson.TypeInt32 {
		t.Errorf("nullProbability 0 gave %v", v.Type)
	}
}

// TestDeterminism protects reproducibility: the same template, Env seed and
// State seeds give the same bytes, and another stream gives other bytes.
// (objectId, now and timestamp follow the clock and are left out.)
func TestDeterminism(t *testing.T) {
	src := `
n: {$gen: int}
l: {$gen: long, nullProbability: 0.2}
d: {$gen: double, decimals: 3}
m: {$gen: decimal}
b: {$gen: bool}
t: {$gen: date}
s: {$gen: string, min: 1, max: 20}
p: {$gen: pattern, pattern: "??-####"}
who: {$gen: name}
where: {$gen: city, missingProbability: 0.3}
x: {$gen: faker, provider: hackerphrase}
w: {$gen: words, min: 1, max: 4}
e: {$gen: enum, values: [1, two, {three: 3}], weights: [1, 2, 3]}
u: {$gen: uuid}
bin: {$gen: binary, max: 9, min: 0}
a: {$gen: array, of: {$gen: sentence}, min: 0, max: 3}
k: {$gen: key, distribution: zipfian, as: string, prefix: k}`
	run := func(envSeed, stream uint64) []byte {
		env := testEnv(Query)
		env.Seed = envSeed
		d, err := CompileDocument(parse(t, src), env)
		if err != nil {
			t.Fatal(err)
		}
		st := NewState(5, stream)
		var out []byte
		for range 50 {
			out = d.Append(out, st)
		}
		return out
	}
	a, b := run(1, 1), run(1, 1)
	if !bytes.Equal(a, b) {
		t.Fatal("same seeds gave different bytes")
	}
	if bytes.Equal(a, run(1, 2)) {
		t.Error("another stream gave the same bytes")
	}
	if bytes.Equal(a, run(2, 1)) {
		t.Error("another pool seed gave the same bytes")
	}
}
