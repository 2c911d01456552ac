package capture

import (
	"maps"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/config"
)

// A lookup by a unique field ({_id: x}, {isbn: "ISBN-004211"}) found one
// document in production. Random values of the same type and range would
// find none in a replay, so such a field is made from the collection's
// keys, in its template and in the lookups alike: {$gen: key} in a
// template hands out new keys, in a filter it draws an existing one, and
// the lookup finds its document again. A field under a unique index is
// made from keys too, as random values would collide. Seeding gives every
// key generator of a document the same key; an insert during the run
// takes a new key for each, so a lookup by one field may miss the few
// documents the run inserted.

// keyed is the field of a collection made from keys, and how.
type keyed struct {
	field string
	gen   config.Value
}

// keyedFields picks the keyed fields of each collection (by namespace).
func keyedFields(shapes []*Shape, cols []*Collection) map[string][]keyed {
	byNS := map[string]*Collection{}
	for _, c := range cols {
		byNS[c.DB+"."+c.Name] = c
	}
	score := map[string]map[string]float64{}
	for _, sh := range shapes {
		ns := sh.DB + "." + sh.Coll
		c := byNS[ns]
		if c == nil {
			continue
		}
		for _, p := range sh.HoleOrder {
			field, eq := lookupField(p)
			if !eq {
				continue
			}
			if score[ns] == nil {
				score[ns] = map[string]float64{}
			}
			score[ns][field] += sh.Count
		}
	}
	out := map[string][]keyed{}
	for _, c := range cols {
		ns := c.DB + "." + c.Name
		for _, field := range append(slices.Sorted(maps.Keys(score[ns])), c.uniqueFields()...) {
			f := c.Root.Fields[field]
			if f == nil || slices.ContainsFunc(out[ns], func(k keyed) bool { return k.field == field }) {
				continue
			}
			if g, ok := keyGen(f); ok {
				out[ns] = append(out[ns], keyed{field: field, gen: g})
			} else if c.unique(field) {
				out[ns] = append(out[ns], keyed{field: field, gen: uniqueGen(field, f)})
			}
		}
	}
	return out
}

// uniqueFields are the fields under a single-field unique index.
func (c *Collection) uniqueFields() []string {
	var out []string
	for _, ix := range c.Indexes {
		keys, _ := ix.Lookup("key").DocumentOK()
		els, _ := keys.Elements()
		if u, _ := ix.Lookup("unique").BooleanOK(); u && len(els) == 1 {
			out = append(out, els[0].Key())
		}
	}
	return out
}

func (c *Collection) unique(field string) bool { return slices.Contains(c.uniqueFields(), field) }

// uniqueGen keeps a unique field's type when its values have no form a
// key can write: a key, as a string prefixed with the field's name.
func uniqueGen(field string, f *Field) config.Value {
	switch f.dominant() {
	case bson.TypeString:
		return gen("key", param("prefix", field+"-"))
	case bson.TypeInt32:
		return gen("key", param("as", "int"))
	case bson.TypeObjectID:
		return gen("key", param("as", "objectId"))
	}
	return gen("key")
}

// lookupField is the top-level field a placeholder looks a document up by
// equality ({f: x}, {f: {$eq: x}}, {f: {$in: [...]}}), and whether it does.
func lookupField(path string) (string, bool) {
	parts := strings.Split(path, ".")
	if len(parts) < 2 || parts[0] != "filter" || strings.HasPrefix(parts[1], "$") {
		return "", false
	}
	switch rest := strings.Join(parts[2:], "."); rest {
	case "", "$eq", "$in.[]":
		return parts[1], true
	}
	return "", false
}

// keyGen is the key generator that writes values like f's: an ObjectId,
// an integer from the lowest seen, or a prefix and zero-padded digits;
// ok is false when f is not unique in the sample or has another form.
func keyGen(f *Field) (config.Value, bool) {
	seen := f.N - f.Nulls
	if f.overflow || seen < 20 || float64(len(f.distinct)) < 0.98*float64(seen) {
		return config.Value{}, false
	}
	switch f.dominant() {
	case bson.TypeObjectID:
		return gen("key", param("as", "objectId")), true
	case bson.TypeInt32, bson.TypeInt64:
		lo, _ := minMax(f.nums)
		as := "int"
		if f.dominant() == bson.TypeInt64 {
			as = "long"
		}
		if numberIdentifies(lo) {
			lo = decadeLow(lo) // the lowest key is someone's (a card number): not written (privacy.go)
		}
		return gen("key", param("as", as), param("offset", int64(max(0, lo)))), true
	case bson.TypeString:
		p, ok := pattern(f.strs)
		if !ok {
			return config.Value{}, false
		}
		digits := len(p) - len(strings.TrimRight(p, "#"))
		prefix := p[:len(p)-digits]
		if digits == 0 || strings.ContainsAny(prefix, `#?*\`) {
			return config.Value{}, false
		}
		return gen("key", param("prefix", prefix), param("zeroPadding", int64(digits))), true
	}
	return config.Value{}, false
}
