package workload

import (
	"fmt"
	"strings"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/generate"
)

func compileCollection(cc *config.Collection, seed uint64, keyspaces map[string]*generate.KeySpace) (*Collection, error) {
	col := &Collection{Database: cc.Database, Name: cc.Name, Keys: generate.NewKeySpace(0, 0), Timeseries: cc.Timeseries}
	keyspaces[cc.Name] = col.Keys
	keyspaces[cc.Namespace()] = col.Keys
	env := &generate.Env{Mode: generate.Insert, Seed: seed, KeySpace: keySpaceLookup(keyspaces, col.Keys)}
	doc, err := generate.CompileDocument(cc.Template, env)
	if err != nil {
		return nil, locate(err, fmt.Sprintf("collections[%s].template", cc.Name))
	}
	col.Doc = doc
	for _, ci := range cc.Indexes {
		ix, err := compileIndex(ci)
		if err != nil {
			return nil, err
		}
		col.Indexes = append(col.Indexes, ix)
	}
	if !cc.ShardKey.IsZero() {
		sk, err := literalDocument(cc.ShardKey)
		if err != nil {
			return nil, locate(err, fmt.Sprintf("collections[%s].shardKey", cc.Name))
		}
		col.ShardKey = sk
	}
	return col, nil
}

func keySpaceLookup(all map[string]*generate.KeySpace, own *generate.KeySpace) func(string) *generate.KeySpace {
	return func(name string) *generate.KeySpace {
		if name == "" {
			return own
		}
		return all[name]
	}
}

func compileIndex(ci config.Index) (Index, error) {
	keys, err := literalDocument(ci.Keys)
	if err != nil {
		return Index{}, locate(err, "indexes.keys")
	}
	ix := Index{Name: ci.Name, Keys: keys, Unique: ci.Unique, Sparse: ci.Sparse, TTL: ci.TTL.D()}
	if !ci.Partial.IsZero() {
		if ix.Partial, err = literalDocument(ci.Partial); err != nil {
			return Index{}, locate(err, "indexes.partialFilterExpression")
		}
	}
	var parts []string
	for _, f := range ci.Keys.Fields {
		dir := fmt.Sprint(f.Value.Scalar)
		if dir == "hashed" {
			ix.Hashed = true
		}
		parts = append(parts, f.Key+"_"+dir)
	}
	if ix.Name == "" {
		ix.Name = strings.Join(parts, "_") // the server's own naming rule
	}
	return ix, nil
}

// literalDocument encodes a template that must hold no generator.
func literalDocument(v config.Value) ([]byte, error) {
	doc, err := generate.CompileDocument(v, &generate.Env{KeySpace: func(string) *generate.KeySpace { return nil }})
	if err != nil {
		return nil, err
	}
	if hasGen(v) {
		return nil, config.Errorf(config.Invalid, v.Line, "this document is fixed: it cannot hold a $gen")
	}
	return doc.Append(nil, generate.NewState(0, 0)), nil
}

func hasGen(v config.Value) bool {
	if v.Kind == config.KindGen {
		return true
	}
	for _, f := range v.Fields {
		if hasGen(f.Value) {
			return true
		}
	}
	for _, it := range v.Items {
		if hasGen(it) {
			return true
		}
	}
	return false
}

// locate names the field of an error that has none.
func locate(err error, field string) error {
	if e, ok := err.(*config.Error); ok && e.Field == "" {
		e.Field = field
	}
	return err
}
