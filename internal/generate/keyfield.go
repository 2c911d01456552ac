package generate

import "go.mongodb.org/mongo-driver/v2/bson"

// KeyField is the top-level field of a document template that takes the
// new keys of the collection's own key space on insert (`_id: {$gen: key}`).
type KeyField struct {
	Name string
	g    *keyGen
}

// KeyField finds the field of d that takes new keys on insert: a
// top-level key generator of the template's own key space, always written
// (no missingProbability, no nullProbability).
func (d *Document) KeyField() (KeyField, bool) {
	e, ok := d.g.(*elements)
	if !ok {
		return KeyField{}, false
	}
	for _, s := range e.segs {
		if k, ok := s.gen.(*keyGen); ok && k.insert && s.missing == 0 && len(s.head) > 2 {
			return KeyField{Name: string(s.head[1 : len(s.head)-1]), g: k}, true
		}
	}
	return KeyField{}, false
}

// Value is physical key k as the field stores it (offset, hash, prefix and
// padding applied): what a query for that document matches.
func (f KeyField) Value(k int64) bson.RawValue {
	t, b := f.g.encode(nil, k)
	return bson.RawValue{Type: t, Value: b}
}
