package plgm

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/mongoload/mongoload/internal/config"
)

// collectionDef is one plgm collection definition.
type collectionDef struct {
	file     string
	line     int
	db, name string
	fields   []*fieldDef
	indexes  []indexDef
	shardKey *node
	// key is the collection's primary integer key (see pickKey), nil when
	// it has none.
	key *fieldDef
}

// fieldDef is one plgm field definition.
type fieldDef struct {
	name      string
	path      string // from the document root: customer.address.city, items.sku
	file      string
	line      int
	typ       string
	provider  string
	template  string
	min, max  *int64
	minLen    int64
	maxLen    int64
	arraySize int64
	enum      *node
	items     *fieldDef
	fields    []*fieldDef
}

type indexDef struct {
	keys *node
	line int
}

// queryDef is one plgm query definition.
type queryDef struct {
	file       string
	line       int
	index      int // position in its file
	db, coll   string
	operation  string
	name       string
	filter     *node
	update     *node
	pipeline   *node
	projection *node
	sort       *node
	limit      int64
	upsert     bool
}

// jsonFiles lists the definition files at path: the file itself, or the
// .json files of a directory in name order. In a directory plgm reads
// only default.json when its default workload is on, and every file but
// default.json otherwise.
func jsonFiles(path string, defaultWorkload bool, what string) ([]string, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, &config.Error{Kind: config.Unreadable, File: path, Msg: fmt.Sprintf("cannot read the plgm %s definitions: %v", what, unwrap(err))}
	}
	if !info.IsDir() {
		return []string{path}, nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, &config.Error{Kind: config.Unreadable, File: path, Msg: fmt.Sprintf("cannot list the plgm %s definitions: %v", what, unwrap(err))}
	}
	var files []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.EqualFold(filepath.Ext(name), ".json") {
			continue
		}
		if strings.EqualFold(name, "default.json") != defaultWorkload {
			continue
		}
		files = append(files, filepath.Join(path, name))
	}
	sort.Strings(files)
	if len(files) == 0 {
		which := "no .json file other than default.json"
		if defaultWorkload {
			which = "no default.json (PLGM_DEFAULT_WORKLOAD is true: set it to false to read the other files)"
		}
		return nil, &config.Error{Kind: config.Unreadable, File: path, Msg: fmt.Sprintf("%s: the directory has %s", what, which)}
	}
	return files, nil
}

func unwrap(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// readJSON parses one definition file.
func readJSON(file string) (*node, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, &config.Error{Kind: config.Unreadable, File: file, Msg: fmt.Sprintf("cannot read: %v", unwrap(err))}
	}
	n, err := parseJSON(data)
	if err != nil {
		return nil, &config.Error{Kind: config.Syntax, File: file, Msg: err.Error()}
	}
	return n, nil
}

// list returns the definitions of a file: a list, or an object holding the
// list under key (plgm accepts both).
func list(file string, n *node, key string) ([]*node, error) {
	switch {
	case n.kind == jsonArray:
		return n.items, nil
	case n.kind == jsonObject && n.get(key) != nil && n.get(key).kind == jsonArray:
		return n.get(key).items, nil
	}
	return nil, &config.Error{Kind: config.Invalid, File: file, Line: n.line,
		Msg: fmt.Sprintf(`expected a list of definitions, or {"%s": [...]}`, key)}
}

var collectionKeys = []string{"database", "collection", "databaseName", "collectionName", "fields", "indexes", "shardConfig"}

// readCollections reads every collection definition of the files.
func (c *converter) readCollections(files []string) error {
	var es config.Errors
	for _, file := range files {
		root, err := readJSON(file)
		if err != nil {
			return err
		}
		defs, err := list(file, root, "collections")
		if err != nil {
			return err
		}
		for i, d := range defs {
			col, err := c.readCollection(file, i, d)
			if err != nil {
				es = append(es, asErrors(err)...)
				continue
			}
			for _, other := range c.cols {
				if strings.EqualFold(other.db+"."+other.name, col.db+"."+col.name) {
					es = append(es, &config.Error{Kind: config.Invalid, File: file, Line: d.line,
						Msg: fmt.Sprintf("collection %s.%s is defined twice (also in %s)", col.db, col.name, other.file)})
				}
			}
			c.cols = append(c.cols, col)
		}
	}
	if len(es) == 0 && len(c.cols) == 0 {
		es = append(es, &config.Error{Kind: config.Invalid, File: files[0], Msg: "no collection definition found"})
	}
	return es.Err()
}

func asErrors(err error) config.Errors {
	switch e := err.(type) {
	case config.Errors:
		return e
	case *config.Error:
		return config.Errors{e}
	}
	return config.Errors{{Kind: config.Invalid, Msg: err.Error()}}
}

func (c *converter) readCollection(file string, i int, d *node) (*collectionDef, error) {
	field := fmt.Sprintf("[%d]", i)
	if d.kind != jsonObject {
		return nil, &config.Error{Kind: config.Invalid, File: file, Line: d.line, Field: field, Msg: "a collection definition is an object"}
	}
	col := &collectionDef{file: file, line: d.line}
	for _, m := range d.fields {
		switch m.key {
		case "database", "databaseName":
			col.db = m.val.str
		case "collection", "collectionName":
			col.name = m.val.str
		case "fields", "indexes", "shardConfig":
		default:
			c.warn(file, m.line, field+"."+m.key, "unknown key, ignored (plgm ignores it too)%s", config.DidYouMean(m.key, collectionKeys))
		}
	}
	if col.db == "" || col.name == "" {
		return nil, &config.Error{Kind: config.Invalid, File: file, Line: d.line, Field: field,
			Msg: `a collection definition needs "database" and "collection"`}
	}
	field = col.name
	fields := d.get("fields")
	if fields == nil || fields.kind != jsonObject {
		return nil, &config.Error{Kind: config.Invalid, File: file, Line: d.line, Field: field + ".fields",
			Msg: `"fields" must be an object of field definitions, such as {"name": {"type": "string"}}`}
	}
	var es config.Errors
	for _, m := range fields.fields {
		f, err := c.field(file, field+".fields", m.key, m.key, m.val)
		if err != nil {
			es = append(es, asErrors(err)...)
			continue
		}
		col.fields = append(col.fields, f)
	}
	if ix := d.get("indexes"); ix != nil {
		if ix.kind != jsonArray {
			es = append(es, &config.Error{Kind: config.Invalid, File: file, Line: ix.line, Field: field + ".indexes", Msg: "indexes must be a list"})
		}
		for j, in := range ix.items {
			f := fmt.Sprintf("%s.indexes[%d]", field, j)
			keys := in.get("keys")
			if keys == nil || keys.kind != jsonObject || len(keys.fields) == 0 {
				es = append(es, &config.Error{Kind: config.Invalid, File: file, Line: in.line, Field: f + ".keys",
					Msg: `an index needs keys, such as {"keys": {"order_id": 1}}`})
				continue
			}
			for _, m := range in.fields {
				if m.key != "keys" {
					c.warn(file, m.line, f+"."+m.key, "not supported by plgm, which creates the index from its keys alone; ignored")
				}
			}
			col.indexes = append(col.indexes, indexDef{keys: keys, line: in.line})
		}
	}
	if sc := d.get("shardConfig"); sc != nil {
		col.shardKey = sc.get("key")
		for _, m := range sc.fields {
			if m.key != "key" {
				c.warn(file, m.line, field+".shardConfig."+m.key, "not supported (mongoload shards on the key alone); ignored")
			}
		}
	}
	col.key = pickKey(col)
	return col, es.Err()
}

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
