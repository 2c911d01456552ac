package plgm

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/mongoload/mongoload/internal/config"
)

var queryKeys = []string{"database", "collection", "operation", "id", "name", "label", "description",
	"filter", "pipeline", "projection", "limit", "update", "upsert", "sort"}

// readQueries reads every query definition of the files.
func (c *converter) readQueries(files []string) error {
	var es config.Errors
	for _, file := range files {
		root, err := readJSON(file)
		if err != nil {
			return err
		}
		defs, err := list(file, root, "queries")
		if err != nil {
			return err
		}
		for i, d := range defs {
			q, err := c.query(file, i, d)
			if err != nil {
				es = append(es, asErrors(err)...)
				continue
			}
			if q != nil {
				c.queries = append(c.queries, q)
			}
		}
	}
	return es.Err()
}

// opNames maps plgm's operation names to the operation types it runs;
// plgm's newer files write "update" and "delete" for the single-document
// forms.
var opNames = map[string]string{
	"find": "find", "updateone": "updateOne", "update": "updateOne", "updatemany": "updateMany",
	"deleteone": "deleteOne", "delete": "deleteOne", "deletemany": "deleteMany", "aggregate": "aggregate",
	"insert": "insert", "insertone": "insert", "insertmany": "insert",
}

func (c *converter) query(file string, i int, d *node) (*queryDef, error) {
	where := fmt.Sprintf("[%d]", i)
	if d.kind != jsonObject {
		return nil, &config.Error{Kind: config.Invalid, File: file, Line: d.line, Field: where, Msg: "a query definition is an object"}
	}
	q := &queryDef{file: file, line: d.line, index: i}
	var es config.Errors
	for _, m := range d.fields {
		f := where + "." + m.key
		wantObject := func() *node {
			if m.val.kind != jsonObject {
				es = append(es, &config.Error{Kind: config.Invalid, File: file, Line: m.line, Field: f, Msg: "must be an object"})
				return nil
			}
			return m.val
		}
		switch m.key {
		case "database":
			q.db = m.val.str
		case "collection":
			q.coll = m.val.str
		case "operation":
			q.operation = m.val.str
		case "name", "label", "id":
			if q.name == "" {
				q.name = m.val.str
			}
		case "description":
		case "filter":
			q.filter = wantObject()
		case "update":
			q.update = wantObject()
		case "projection":
			q.projection = wantObject()
		case "sort":
			q.sort = wantObject()
		case "pipeline":
			if m.val.kind != jsonArray {
				es = append(es, &config.Error{Kind: config.Invalid, File: file, Line: m.line, Field: f, Msg: "a pipeline is a list of stages"})
			}
			q.pipeline = m.val
		case "limit":
			if n, ok := number(m.val.num.String()).(int64); m.val.kind == jsonNumber && ok {
				q.limit = n
			} else {
				es = append(es, &config.Error{Kind: config.Invalid, File: file, Line: m.line, Field: f, Msg: "must be a whole number"})
			}
		case "upsert":
			q.upsert = m.val.b
		default:
			c.warn(file, m.line, f, "unknown key, ignored (plgm ignores it too)%s", config.DidYouMean(m.key, queryKeys))
		}
	}
	op, ok := opNames[strings.ToLower(q.operation)]
	switch {
	case q.operation == "":
		es = append(es, &config.Error{Kind: config.Invalid, File: file, Line: d.line, Field: where + ".operation",
			Msg: "missing: find, updateOne, updateMany, deleteOne, deleteMany or aggregate"})
	case !ok:
		c.warn(file, d.line, where+".operation", "plgm does not run %q queries; skipped", q.operation)
		return nil, es.Err()
	case op == "insert":
		c.warn(file, d.line, where+".operation", "plgm does not run insert queries: its inserts write documents made from the collection definition, as mongoload's do; skipped")
		return nil, es.Err()
	}
	q.operation = op
	if q.coll == "" {
		es = append(es, &config.Error{Kind: config.Invalid, File: file, Line: d.line, Field: where + ".collection", Msg: "missing: the collection the query runs on"})
	}
	return q, es.Err()
}

// collectionOf finds a query's collection among the definitions.
func (c *converter) collectionOf(q *queryDef) (*collectionDef, error) {
	var names []string
	for _, col := range c.cols {
		if col.name == q.coll && (q.db == "" || q.db == col.db) {
			return col, nil
		}
		names = append(names, col.name)
	}
	return nil, &config.Error{Kind: config.Invalid, File: q.file, Line: q.line, Field: fmt.Sprintf("[%d].collection", q.index),
		Msg: fmt.Sprintf("no collection definition for %q (defined: %s)%s", qualified(q.db, q.coll), strings.Join(names, ", "), config.DidYouMean(q.coll, names))}
}

func qualified(db, coll string) string {
	if db == "" {
		return coll
	}
	return db + "." + coll
}

// placeholders returns the function that turns a query's placeholder
// strings ("<int>", "<string>", ...) into generators. A placeholder on a
// field of the collection becomes that field's own generator (the key for
// the collection's key), so that queries look for values that exist, as
// plgm's record pool makes most of them do; any other becomes a generator
// of its type.
func (c *converter) placeholders(col *collectionDef, q *queryDef) func(s, path string, line int) config.Value {
	return func(s, path string, line int) config.Value {
		typ, ok := placeholderType(s)
		if !ok {
			return lit(s)
		}
		if f := col.lookup(path); f != nil && compatible(typ, f) {
			if f == col.key {
				return c.keyGen(f, true)
			}
			return c.template(col, f)
		}
		return c.typed(typ, q.file, line, path)
	}
}

// placeholderType returns "int" for "<int>".
func placeholderType(s string) (string, bool) {
	if len(s) > 2 && s[0] == '<' && s[len(s)-1] == '>' {
		return strings.ToLower(s[1 : len(s)-1]), true
	}
	return "", false
}

// compatible reports whether a placeholder type matches what a field holds.
func compatible(typ string, f *fieldDef) bool {
	k := kindOf(f)
	switch typ {
	case "int", "integer", "int32", "long", "int64", "double", "float", "number", "decimal", "decimal128":
		return k == "number"
	case "string":
		return k == "string"
	case "bool", "boolean":
		return k == "bool"
	case "date", "datetime":
		return k == "date"
	case "array", "object":
		return k == typ
	case "objectid", "uuid", "timestamp":
		return f.typ == typ
	}
	return false
}

// typed is the generator of a placeholder on no known field, with plgm's
// ranges: <int> 0 to 999, <string> "val-" and three digits, and so on.
func (c *converter) typed(typ, file string, line int, path string) config.Value {
	switch typ {
	case "int", "integer", "int32":
		return gen("int", "min", 0, "max", 999)
	case "long", "int64", "number":
		return gen("long", "min", 0, "max", 999)
	case "double", "float":
		return gen("double", "min", 0, "max", 1000)
	case "decimal", "decimal128":
		return gen("decimal", "min", 0, "max", 999.99, "scale", 2)
	case "string":
		return gen("pattern", "pattern", "val-###")
	case "bool", "boolean":
		return gen("bool")
	case "null":
		return lit(nil)
	case "array":
		return array(gen("int", "min", 0, "max", 999))
	case "object":
		return doc(field("k", gen("int", "min", 0, "max", 999)))
	case "date", "datetime":
		return lastYear(c.now)
	case "objectid":
		return gen("objectId")
	case "uuid":
		return gen("uuid")
	case "timestamp":
		return gen("timestamp")
	}
	c.warn(file, line, path, "unknown placeholder <%s>: plgm sends a string \"val-\" and a number for it, and so does mongoload", typ)
	return gen("pattern", "pattern", "val-###")
}

var nameChars = regexp.MustCompile(`[^A-Za-z0-9_]+`)

// opName makes a readable, unique operation name.
func (c *converter) opName(base string) string {
	base = strings.Trim(nameChars.ReplaceAllString(base, "_"), "_")
	if base == "" {
		base = "op"
	}
	name := base
	for i := 2; c.names[name]; i++ {
		name = fmt.Sprintf("%s_%d", base, i)
	}
	c.names[name] = true
	return name
}
