// Package shape writes the shape of a BSON query, update or pipeline: its
// structure (field names, operators, stages) with its literals replaced
// by placeholders, so that operations that differ only in their values
// share one shape. Capture groups the operations it reads by shape
// ($queryStats' query shape) and insights groups slow operations by it;
// both use this one writer, each in its notation (Style).
package shape

import (
	"slices"
	"strconv"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Style is a notation of shapes.
type Style int

const (
	// Placeholders is capture's notation, $queryStats': ?number, ?string;
	// every value is walked (an embedded document keeps its keys), each
	// literal is handed to the Writer's leaf with its path, and the
	// Writer's keep says which literals are shape rather than data.
	Placeholders Style = iota
	// Types is insights' notation: <int32>, <string> (the $type names,
	// integers with their width); in a filter a value is one type, an
	// embedded document included (<object>), and only expressions are
	// walked, keeping their field paths ("$origin").
	Types
)

// Writer writes shapes in one style.
type Writer struct {
	Style Style
	// Keep (Placeholders) reports whether the literal at path is part of
	// the shape, written as it is (a field path, a sort direction);
	// nil keeps none.
	Keep func(path string, v bson.RawValue) bool
	// Leaf (Placeholders) receives every literal replaced by a
	// placeholder, with its path; nil ignores them.
	Leaf func(path string, v bson.RawValue)

	b strings.Builder
}

// place is where a value sits, which decides how Types writes it.
type place uint8

const (
	query      place = iota // a filter: field -> predicate
	filters                 // $and, $or, $nor: a list of filters
	predicate               // a field's condition
	list                    // $in, $nin, $all: a list of values
	expression              // an aggregation expression or stage body
	stages                  // a pipeline
	stage                   // one stage
	typed                   // written as its type (Types)
)

// Filter is the shape of a query filter.
func (w *Writer) Filter(path string, filter bson.Raw) string {
	return w.write(path, bson.RawValue{Type: bson.TypeEmbeddedDocument, Value: filter}, query)
}

// Pipeline is the shape of an aggregation pipeline (an array): $match
// stages as filters, other stages as expressions.
func (w *Writer) Pipeline(path string, pipeline []byte) string {
	return w.write(path, bson.RawValue{Type: bson.TypeArray, Value: pipeline}, stages)
}

// Value is the shape of any other part (a sort, a projection, an update).
func (w *Writer) Value(path string, v bson.RawValue) string {
	return w.write(path, v, expression)
}

func (w *Writer) write(path string, v bson.RawValue, at place) string {
	w.b.Reset()
	w.value(path, v, at)
	return w.b.String()
}

func (w *Writer) value(path string, v bson.RawValue, at place) {
	if w.Style == Types && opaque(v, at) {
		w.b.WriteString(TypeName(v.Type))
		return
	}
	switch v.Type {
	case bson.TypeEmbeddedDocument:
		w.doc(path, bson.Raw(v.Value), at)
	case bson.TypeArray:
		w.array(path, bson.RawArray(v.Value), at)
	default:
		w.literal(path, v, at)
	}
}

// opaque: Types writes the value at this place as its type alone.
func opaque(v bson.RawValue, at place) bool {
	switch at {
	case typed:
		return true
	case query, stage:
		return v.Type != bson.TypeEmbeddedDocument
	case filters, list:
		return v.Type != bson.TypeArray
	case predicate:
		d, ok := v.DocumentOK()
		return !ok || !isOperatorDoc(d)
	}
	return false
}

func (w *Writer) doc(path string, d bson.Raw, at place) {
	els, err := d.Elements()
	if err != nil && w.Style == Types {
		w.b.WriteString("<invalid>")
		return
	}
	w.b.WriteByte('{')
	for i, e := range els {
		if i > 0 {
			w.comma()
		}
		w.key(e.Key())
		w.b.WriteString(w.colon())
		w.value(path+"."+e.Key(), e.Value(), inside(at, e))
	}
	w.b.WriteByte('}')
}

// inside is the place of a document's element.
func inside(at place, e bson.RawElement) place {
	k := e.Key()
	switch at {
	case query:
		switch {
		case k == "$and" || k == "$or" || k == "$nor":
			return filters
		case k == "$expr":
			return expression
		case strings.HasPrefix(k, "$"): // $text, $where, $comment...
			return typed
		}
		return predicate
	case predicate:
		switch k {
		case "$in", "$nin", "$all":
			return list
		case "$not":
			return predicate
		case "$elemMatch":
			if d, ok := e.Value().DocumentOK(); ok && !isOperatorDoc(d) {
				return query
			}
			return predicate
		}
		return typed
	case stage:
		if _, ok := e.Value().DocumentOK(); ok && k == "$match" {
			return query
		}
	}
	return expression
}

func (w *Writer) array(path string, arr bson.RawArray, at place) {
	vals, err := arr.Values()
	if err != nil && w.Style == Types {
		w.b.WriteString("<invalid>")
		return
	}
	if w.Style == Types && at == list {
		w.typeSet(vals)
		return
	}
	if w.Style == Placeholders && Collapses(path) {
		w.b.WriteByte('[')
		seen := map[string]bool{}
		for _, e := range vals {
			if ph := Placeholder(e.Type); !seen[ph] {
				seen[ph] = true
				w.b.WriteString(ph)
			}
			w.leaf(path+".[]", e)
		}
		w.b.WriteByte(']')
		return
	}
	each := expression
	switch at {
	case filters:
		each = query
	case stages:
		each = stage
	}
	w.b.WriteByte('[')
	for i, e := range vals {
		if i > 0 {
			w.comma()
		}
		w.value(path+"."+strconv.Itoa(i), e, each)
	}
	w.b.WriteByte(']')
}

func (w *Writer) literal(path string, v bson.RawValue, at place) {
	switch {
	case w.Style == Types && at == expression && v.Type == bson.TypeString && strings.HasPrefix(v.StringValue(), "$"):
		w.b.WriteString(strconv.Quote(v.StringValue())) // a field path or a variable
	case w.Style == Types:
		w.b.WriteString(TypeName(v.Type))
	case w.Keep != nil && w.Keep(path, v):
		w.b.WriteString(Text(v)) // a field path, a stage's option: shape
	default:
		w.b.WriteString(Placeholder(v.Type))
		w.leaf(path, v)
	}
}

func (w *Writer) leaf(path string, v bson.RawValue) {
	if w.Leaf != nil {
		w.Leaf(path, v)
	}
}

// typeSet writes the distinct element types of a list, sorted: [<int64>]
// or [<int32>|<string>]; an empty list is [].
func (w *Writer) typeSet(vals []bson.RawValue) {
	var names []string
	for _, x := range vals {
		names = append(names, TypeName(x.Type))
	}
	slices.Sort(names)
	names = slices.Compact(names)
	w.b.WriteString("[" + strings.Join(names, "|") + "]")
}

func (w *Writer) comma() {
	if w.Style == Types {
		w.b.WriteString(", ")
	} else {
		w.b.WriteByte(',')
	}
}

func (w *Writer) colon() string {
	if w.Style == Types {
		return ": "
	}
	return ":"
}

// key writes a field name; Types quotes one that needs it.
func (w *Writer) key(k string) {
	if w.Style == Types && !plainKey(k) {
		w.b.WriteString(strconv.Quote(k))
		return
	}
	w.b.WriteString(k)
}

func plainKey(k string) bool {
	for _, r := range k {
		if !(r == '_' || r == '.' || r == '$' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return k != ""
}

// isOperatorDoc reports whether d is {$op: ...}, not an embedded document
// the field must equal.
func isOperatorDoc(d bson.Raw) bool {
	e, err := d.IndexErr(0)
	return err == nil && strings.HasPrefix(e.Key(), "$")
}
