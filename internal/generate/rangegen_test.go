package generate

import (
	"math"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// TestRangeKeepsItsWidth: each range's upper bound is its lower bound
// plus a width drawn from the width's law, in the lower bound's type, for
// dates (milliseconds), ints, longs and doubles; ops name the operators.
func TestRangeKeepsItsWidth(t *testing.T) {
	for _, tt := range []struct {
		name, yaml string
		typ        bson.Type
		lo, hi     string // the operators
		widths     []float64
	}{
		{"dates a day or a week wide", "$gen: range\nlower: {$gen: date, from: 2024-01-01T00:00:00Z, to: 2024-12-31T00:00:00Z}\nwidth: {$gen: enum, values: [86400000, 604800000]}", bson.TypeDateTime, "$gte", "$lt", []float64{86400000, 604800000}},
		{"ints 10 wide, $gt and $lte", "$gen: range\nlower: {$gen: int, min: 0, max: 1000}\nwidth: 10\nops: [gt, lte]", bson.TypeInt32, "$gt", "$lte", []float64{10}},
		{"longs", "$gen: range\nlower: {$gen: long, min: 5000000000, max: 6000000000}\nwidth: {$gen: int, min: 3, max: 3}", bson.TypeInt64, "$gte", "$lt", []float64{3}},
		{"doubles", "$gen: range\nlower: {$gen: double, min: 0, max: 1}\nwidth: 0.25", bson.TypeDouble, "$gte", "$lt", []float64{0.25}},
	} {
		g := compile(t, tt.yaml, &Env{})
		st := NewState(1, 1)
		seen := map[float64]bool{}
		for range 200 {
			v := draw(t, g, st)
			if v.Type != bson.TypeEmbeddedDocument {
				t.Fatalf("%s: a %s, not a document", tt.name, v.Type)
			}
			d := v.Document()
			lo, hi := d.Lookup(tt.lo), d.Lookup(tt.hi)
			if lo.Type != tt.typ || hi.Type != tt.typ {
				t.Fatalf("%s: bounds %s and %s in %s, want %s", tt.name, lo.Type, hi.Type, d, tt.typ)
			}
			var w float64
			switch tt.typ {
			case bson.TypeDateTime:
				w = float64(hi.Time().Sub(lo.Time()) / time.Millisecond)
			case bson.TypeInt32:
				w = float64(hi.Int32() - lo.Int32())
			case bson.TypeInt64:
				w = float64(hi.Int64() - lo.Int64())
			case bson.TypeDouble:
				w = hi.Double() - lo.Double()
			}
			seen[math.Round(w*1e9)/1e9] = true // a double's sum rounds
		}
		for _, w := range tt.widths {
			if !seen[w] {
				t.Errorf("%s: width %g never drawn (drew %v)", tt.name, w, seen)
			}
		}
		if len(seen) != len(tt.widths) {
			t.Errorf("%s: widths %v, want only %v", tt.name, seen, tt.widths)
		}
	}
}

// TestRangeRefusals: what a range needs, named.
func TestRangeRefusals(t *testing.T) {
	for _, yaml := range []string{"$gen: range\nwidth: 1", "$gen: range\nlower: 1", "$gen: range\nlower: 1\nwidth: 1\nops: [$gte]"} {
		if _, err := Compile(parse(t, yaml), &Env{}); err == nil {
			t.Errorf("%q compiled", yaml)
		}
	}
}
