// Package insights finds what made operations slow: it groups the
// operations that reached a latency threshold by shape (the collection, the
// operation type and the filter with its values replaced by their types),
// keeps a small latency histogram per shape, and asks the server to explain
// the slowest shapes after the run.
//
// Only operations over the threshold pay for any of it: the engine hands
// them to a Recorder, which copies the filter and queues it for a goroutine
// of its own, never making a worker wait.
package insights

import (
	"sort"
	"strconv"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// FilterShape renders a query filter with its values replaced by their
// BSON types: {flight_id: <int64>, seats_available: {$gt: <int32>}}.
// Field names and operators stay, in the order sent; $in-like lists become
// the set of their element types ([<int64>]), so that lists of different
// lengths share a shape. An invalid document renders as <invalid>.
func FilterShape(filter []byte) string {
	var b strings.Builder
	filterDoc(&b, bson.Raw(filter))
	return b.String()
}

// PipelineShape renders an aggregation pipeline the same way: $match
// stages as filters, other stages with their literals replaced by types
// and their field paths ("$origin") kept.
func PipelineShape(pipeline []byte) string {
	vals, err := bson.Raw(pipeline).Values()
	if err != nil {
		return "<invalid>"
	}
	var b strings.Builder
	b.WriteByte('[')
	for i, v := range vals {
		if i > 0 {
			b.WriteString(", ")
		}
		stage, ok := v.DocumentOK()
		if !ok {
			b.WriteString(typeName(v.Type))
			continue
		}
		elems, err := stage.Elements()
		if err != nil {
			b.WriteString("<invalid>")
			continue
		}
		b.WriteByte('{')
		for j, e := range elems {
			if j > 0 {
				b.WriteString(", ")
			}
			key(&b, e.Key())
			b.WriteString(": ")
			if d, ok := e.Value().DocumentOK(); ok && e.Key() == "$match" {
				filterDoc(&b, d)
			} else {
				expr(&b, e.Value())
			}
		}
		b.WriteByte('}')
	}
	b.WriteByte(']')
	return b.String()
}

// filterDoc writes a query document: each field's value is a predicate.
func filterDoc(b *strings.Builder, d bson.Raw) {
	elems, err := d.Elements()
	if err != nil {
		b.WriteString("<invalid>")
		return
	}
	b.WriteByte('{')
	for i, e := range elems {
		if i > 0 {
			b.WriteString(", ")
		}
		k := e.Key()
		key(b, k)
		b.WriteString(": ")
		switch {
		case k == "$and" || k == "$or" || k == "$nor":
			filterList(b, e.Value())
		case k == "$expr":
			expr(b, e.Value())
		case strings.HasPrefix(k, "$"): // $text, $where, $comment...
			b.WriteString(typeName(e.Value().Type))
		default:
			predicate(b, e.Value())
		}
	}
	b.WriteByte('}')
}

// filterList writes the filters of $and, $or or $nor.
func filterList(b *strings.Builder, v bson.RawValue) {
	arr, ok := v.ArrayOK()
	if !ok {
		b.WriteString(typeName(v.Type))
		return
	}
	vals, _ := arr.Values()
	b.WriteByte('[')
	for i, x := range vals {
		if i > 0 {
			b.WriteString(", ")
		}
		if d, ok := x.DocumentOK(); ok {
			filterDoc(b, d)
		} else {
			b.WriteString(typeName(x.Type))
		}
	}
	b.WriteByte(']')
}

// predicate writes a field's condition: an operator document such as
// {$gt: <int32>}, or the type of the value it must equal.
func predicate(b *strings.Builder, v bson.RawValue) {
	d, ok := v.DocumentOK()
	if !ok || !isOperatorDoc(d) {
		b.WriteString(typeName(v.Type))
		return
	}
	elems, _ := d.Elements()
	b.WriteByte('{')
	for i, e := range elems {
		if i > 0 {
			b.WriteString(", ")
		}
		k := e.Key()
		key(b, k)
		b.WriteString(": ")
		switch k {
		case "$in", "$nin", "$all":
			typeSet(b, e.Value())
		case "$not":
			predicate(b, e.Value())
		case "$elemMatch":
			if ed, ok := e.Value().DocumentOK(); ok && isOperatorDoc(ed) {
				predicate(b, e.Value())
			} else if ok {
				filterDoc(b, ed)
			} else {
				b.WriteString(typeName(e.Value().Type))
			}
		default:
			b.WriteString(typeName(e.Value().Type))
		}
	}
	b.WriteByte('}')
}

// isOperatorDoc reports whether d is {$op: ...}, not an embedded document
// the field must equal.
func isOperatorDoc(d bson.Raw) bool {
	e, err := d.IndexErr(0)
	return err == nil && strings.HasPrefix(e.Key(), "$")
}

// typeSet writes the distinct element types of a list, sorted: [<int64>]
// or [<int32>|<string>]; an empty list is [].
func typeSet(b *strings.Builder, v bson.RawValue) {
	arr, ok := v.ArrayOK()
	if !ok {
		b.WriteString(typeName(v.Type))
		return
	}
	vals, _ := arr.Values()
	seen := map[string]bool{}
	for _, x := range vals {
		seen[typeName(x.Type)] = true
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	b.WriteString("[" + strings.Join(names, "|") + "]")
}

// expr writes an aggregation expression or stage body: documents and
// arrays recursed, field paths ("$x") and variables kept, literals typed.
func expr(b *strings.Builder, v bson.RawValue) {
	switch v.Type {
	case bson.TypeEmbeddedDocument:
		elems, err := v.Document().Elements()
		if err != nil {
			b.WriteString("<invalid>")
			return
		}
		b.WriteByte('{')
		for i, e := range elems {
			if i > 0 {
				b.WriteString(", ")
			}
			key(b, e.Key())
			b.WriteString(": ")
			expr(b, e.Value())
		}
		b.WriteByte('}')
	case bson.TypeArray:
		vals, _ := v.Array().Values()
		b.WriteByte('[')
		for i, x := range vals {
			if i > 0 {
				b.WriteString(", ")
			}
			expr(b, x)
		}
		b.WriteByte(']')
	case bson.TypeString:
		if s := v.StringValue(); strings.HasPrefix(s, "$") {
			b.WriteString(strconv.Quote(s))
			return
		}
		b.WriteString("<string>")
	default:
		b.WriteString(typeName(v.Type))
	}
}

// key writes a field name, quoted only when it needs to be.
func key(b *strings.Builder, k string) {
	plain := k != ""
	for _, r := range k {
		if !(r == '_' || r == '.' || r == '$' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			plain = false
			break
		}
	}
	if plain {
		b.WriteString(k)
	} else {
		b.WriteString(strconv.Quote(k))
	}
}

// typeName is a BSON type as the $type operator names it, in angle brackets,
// except that integers say their width (int32, int64) as drivers do.
func typeName(t bson.Type) string {
	switch t {
	case bson.TypeDouble:
		return "<double>"
	case bson.TypeString:
		return "<string>"
	case bson.TypeEmbeddedDocument:
		return "<object>"
	case bson.TypeArray:
		return "<array>"
	case bson.TypeBinary:
		return "<binData>"
	case bson.TypeObjectID:
		return "<objectId>"
	case bson.TypeBoolean:
		return "<bool>"
	case bson.TypeDateTime:
		return "<date>"
	case bson.TypeNull:
		return "<null>"
	case bson.TypeRegex:
		return "<regex>"
	case bson.TypeInt32:
		return "<int32>"
	case bson.TypeTimestamp:
		return "<timestamp>"
	case bson.TypeInt64:
		return "<int64>"
	case bson.TypeDecimal128:
		return "<decimal>"
	case bson.TypeUndefined:
		return "<undefined>"
	case bson.TypeMinKey:
		return "<minKey>"
	case bson.TypeMaxKey:
		return "<maxKey>"
	}
	return "<" + t.String() + ">"
}
