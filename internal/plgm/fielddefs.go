package plgm

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mongoload/mongoload/internal/config"
)

var fieldKeys = []string{"type", "provider", "maxLength", "minLength", "min", "max", "enum", "template", "items", "fields", "arraySize"}

// field reads one field definition; path is the field's place in the
// document and where its path in the file.
func (c *converter) field(file, where, name, path string, d *node) (*fieldDef, error) {
	where = where + "." + name
	if d.kind != jsonObject {
		return nil, &config.Error{Kind: config.Invalid, File: file, Line: d.line, Field: where,
			Msg: `a field definition is an object such as {"type": "string", "provider": "city"}`}
	}
	f := &fieldDef{name: name, path: path, file: file, line: d.line}
	var es config.Errors
	bad := func(m member, msg string) {
		es = append(es, &config.Error{Kind: config.Invalid, File: file, Line: m.line, Field: where + "." + m.key, Msg: msg})
	}
	num := func(m member) int64 {
		n, err := strconv.ParseInt(m.val.num.String(), 10, 64)
		if m.val.kind != jsonNumber || err != nil {
			bad(m, fmt.Sprintf("must be a whole number, not %s", describe(m.val)))
		}
		return n
	}
	str := func(m member) string {
		if m.val.kind != jsonString {
			bad(m, fmt.Sprintf("must be a string, not %s", describe(m.val)))
		}
		return m.val.str
	}
	for _, m := range d.fields {
		switch m.key {
		case "type":
			f.typ = strings.ToLower(str(m))
		case "provider":
			f.provider = str(m)
		case "template":
			f.template = str(m)
		case "min":
			v := num(m)
			f.min = &v
		case "max":
			v := num(m)
			f.max = &v
		case "minLength":
			f.minLen = num(m)
		case "maxLength":
			f.maxLen = num(m)
		case "arraySize":
			f.arraySize = num(m)
		case "enum":
			if m.val.kind != jsonArray || len(m.val.items) == 0 {
				bad(m, "must be a non-empty list of values")
			}
			f.enum = m.val
		case "items":
			items, err := c.field(file, where, "items", path, m.val)
			if err != nil {
				es = append(es, asErrors(err)...)
			}
			f.items = items
		case "fields":
			if m.val.kind != jsonObject {
				bad(m, "must be an object of field definitions")
				continue
			}
			for _, sub := range m.val.fields {
				sf, err := c.field(file, where+".fields", sub.key, path+"."+sub.key, sub.val)
				if err != nil {
					es = append(es, asErrors(err)...)
					continue
				}
				f.fields = append(f.fields, sf)
			}
		default:
			c.warn(file, m.line, where+"."+m.key, "unknown key, ignored (plgm ignores it too)%s", config.DidYouMean(m.key, fieldKeys))
		}
	}
	if f.min != nil && f.max != nil && *f.min > *f.max {
		es = append(es, &config.Error{Kind: config.Invalid, File: file, Line: d.line, Field: where,
			Msg: fmt.Sprintf("min (%d) is greater than max (%d)", *f.min, *f.max)})
	}
	return f, es.Err()
}

func describe(n *node) string {
	switch n.kind {
	case jsonString:
		return strconv.Quote(n.str)
	case jsonNumber:
		return n.num.String()
	}
	return n.kind.String()
}

// pickKey finds the collection's primary integer key the way plgm's fast
// insert path does: the first shard key field of type int or long, else
// an integer _id, else the first integer field whose name contains "id".
// mongoload makes it the collection's key ({$gen: key}: 0, 1, 2, ...), so
// that the values queries look for exist.
func pickKey(col *collectionDef) *fieldDef {
	isInt := func(f *fieldDef) bool {
		return f != nil && (f.typ == "int" || f.typ == "integer" || f.typ == "int32" || f.typ == "long" || f.typ == "int64") &&
			f.provider == "" && f.enum == nil && f.template == ""
	}
	top := func(name string) *fieldDef {
		for _, f := range col.fields {
			if f.name == name {
				return f
			}
		}
		return nil
	}
	if col.shardKey != nil {
		for _, m := range col.shardKey.fields {
			if f := top(m.key); isInt(f) {
				return f
			}
		}
	}
	if f := top("_id"); isInt(f) {
		return f
	}
	for _, f := range col.fields {
		if isInt(f) && strings.Contains(strings.ToLower(f.name), "id") {
			return f
		}
	}
	return nil
}

// lookup finds the field at a dotted path, through objects and arrays.
func (col *collectionDef) lookup(path string) *fieldDef {
	fields := col.fields
	var found *fieldDef
	for _, part := range strings.Split(path, ".") {
		found = nil
		for _, f := range fields {
			if f.name == part {
				found = f
				break
			}
		}
		if found == nil {
			return nil
		}
		for found.items != nil && len(found.fields) == 0 {
			found = found.items // an array: its elements' fields follow
		}
		fields = found.fields
	}
	return found
}
