package workload

import (
	"fmt"
	"math"
	"math/bits"
	"strings"

	"github.com/mongoload/mongoload/internal/config"
)

// MissCause says why filter cannot (or can only rarely) match documents
// made from template when the collection holds seeded of them: a value of
// another type than the field holds ({_id: "val-N"} against ObjectIds), or
// a range of values that misses the values seeded (flight_id 0-999 against
// ids drawn from 0 to 2^31-1). It returns "" when the workload shows no
// such cause. Only equality on a field (a value, or {$eq: value}) is read.
// holds, when not nil, says whether the collection's documents have a
// field the template lacks: documents mongoload did not make from this
// template (another workload's, someone else's) may well have it.
func MissCause(filter, template config.Value, seeded int64, holds func(field string) bool) string {
	if filter.Kind != config.KindDoc {
		return ""
	}
	for _, f := range filter.Fields {
		if strings.HasPrefix(f.Key, "$") {
			continue
		}
		fv := f.Value
		if fv.Kind == config.KindDoc && len(fv.Fields) == 1 && fv.Fields[0].Key == "$eq" {
			fv = fv.Fields[0].Value
		}
		tv, ok := fieldAt(template, f.Key)
		if !ok {
			if f.Key != "_id" {
				if holds != nil && holds(f.Key) {
					continue // the template's documents are not the collection's
				}
				return fmt.Sprintf("the documents have no field %s", f.Key)
			}
			tv = config.Value{Kind: config.KindGen, Gen: "objectId"} // the ids the driver adds
		}
		if c := reach(f.Key, describe(fv, 0), describe(tv, seeded), seeded); c != "" {
			return c
		}
	}
	return ""
}

// fieldAt finds a (dotted) field of a template document.
func fieldAt(doc config.Value, path string) (config.Value, bool) {
	for _, part := range strings.Split(path, ".") {
		if doc.Kind != config.KindDoc {
			return config.Value{}, false
		}
		found := false
		for _, f := range doc.Fields {
			if f.Key == part {
				doc, found = f.Value, true
				break
			}
		}
		if !found {
			return config.Value{}, false
		}
	}
	return doc, true
}

// values is what a filter or template value draws: its type class and,
// for numbers, the range.
type values struct {
	class  string // "number", "string", "ObjectId", or "" when unknown
	lo, hi int64
	ranged bool
	keys   bool // the key generator: in a filter it draws keys that exist
}

// describe reads a value's class and range; seeded is the number of
// documents, which bounds the key generator's range in a template.
func describe(v config.Value, seeded int64) values {
	switch v.Kind {
	case config.KindScalar:
		switch x := v.Scalar.(type) {
		case int64:
			return values{class: "number", lo: x, hi: x, ranged: true}
		case float64:
			if x == math.Trunc(x) && math.Abs(x) < 1<<62 {
				return values{class: "number", lo: int64(x), hi: int64(x), ranged: true}
			}
			return values{class: "number"}
		case string:
			return values{class: "string"}
		}
	case config.KindGen:
		switch v.Gen {
		case "int":
			return genRange(v, math.MaxInt32)
		case "long":
			return genRange(v, math.MaxInt64)
		case "double", "decimal":
			return values{class: "number"}
		case "string", "pattern", "faker", "words", "sentence":
			return values{class: "string"}
		case "objectId":
			return values{class: "ObjectId"}
		case "key":
			form, _ := v.Param("form")
			if s, _ := form.Scalar.(string); s == "string" {
				return values{class: "string", keys: true}
			}
			return values{class: "number", lo: 0, hi: max(seeded-1, 0), ranged: seeded > 0, keys: true}
		}
	}
	return values{}
}

func genRange(v config.Value, defMax int64) values {
	out := values{class: "number", lo: 0, hi: defMax, ranged: true}
	if p, ok := v.Param("min"); ok {
		out.lo, out.ranged = scalarInt(p, out.ranged)
	}
	if p, ok := v.Param("max"); ok {
		var r bool
		out.hi, r = scalarInt(p, out.ranged)
		out.ranged = out.ranged && r
	}
	return out
}

func scalarInt(v config.Value, ok bool) (int64, bool) {
	switch x := v.Scalar.(type) {
	case int64:
		return x, ok
	case float64:
		return int64(x), ok
	}
	return 0, false
}

// reach compares what the filter draws (f) with what the field holds (t).
func reach(field string, f, t values, seeded int64) string {
	if f.keys || f.class == "" || t.class == "" {
		return ""
	}
	if f.class != t.class {
		return fmt.Sprintf("the filter's %s values are %ss while the documents' %s values are %ss: they can never be equal", field, f.class, field, t.class)
	}
	if !f.ranged || !t.ranged || seeded <= 0 {
		return ""
	}
	span := func(lo, hi int64) float64 { return float64(hi) - float64(lo) + 1 }
	overlap := max(0, span(max(f.lo, t.lo), min(f.hi, t.hi)))
	// The share of drawn values that a seeded document holds: those in the
	// overlap, times the chance a value of the field's range was drawn by
	// one of the seeded documents (keys 0..N-1 hold every value).
	density := 1.0
	if !t.keys {
		density = min(1, float64(seeded)/span(t.lo, t.hi))
	}
	if hit := overlap / span(f.lo, f.hi) * density; hit >= 0.5 {
		return ""
	}
	what := field + " seeded " + rangeText(t.lo, t.hi)
	if t.keys {
		what = "keys seeded " + rangeText(t.lo, t.hi)
	} else if density < 1 {
		what = fmt.Sprintf("%s seeded over %s in %d documents", field, rangeText(t.lo, t.hi), seeded)
	}
	return fmt.Sprintf("the filter does not reach the data (values %s, %s)", rangeText(f.lo, f.hi), what)
}

// rangeText writes lo-hi, powers of two as 2^k.
func rangeText(lo, hi int64) string {
	if lo == hi {
		return numText(lo)
	}
	return numText(lo) + "-" + numText(hi)
}

func numText(v int64) string {
	if v >= 1<<16 {
		if u := uint64(v); u&(u-1) == 0 {
			return fmt.Sprintf("2^%d", bits.TrailingZeros64(u))
		}
		if u := uint64(v) + 1; u&(u-1) == 0 {
			return fmt.Sprintf("2^%d-1", bits.TrailingZeros64(u))
		}
	}
	return fmt.Sprint(v)
}
