package plgm

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
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
