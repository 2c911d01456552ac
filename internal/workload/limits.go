package workload

import (
	"fmt"
	"strconv"

	"github.com/mongoload/mongoload/internal/config"
)

// MongoDB's documented limits (https://www.mongodb.com/docs/manual/reference/limits/)
// that a workload can break before it runs: the server would refuse every
// such document or index, or (a nesting far beyond the limit) fall over.
const (
	maxNesting      = 100              // "Nested Depth for BSON Documents"
	maxDocument     = 16 * 1024 * 1024 // "BSON Document Size"
	maxIndexFields  = 32               // "Number of Indexed Fields in a Compound Index"
	maxIndexesOfOne = 64               // "Number of Indexes per Collection", _id's included
)

// checkLimits refuses templates nested beyond maxNesting, documents that
// can grow beyond maxDocument where their size is known (strings, binary,
// arrays and literals; other generators count as nothing, so a refusal is
// never a guess), and indexes beyond the fixed limits.
func checkLimits(cfg *config.Config) config.Errors {
	var es config.Errors
	for i := range cfg.Collections {
		cc := &cfg.Collections[i]
		field := fmt.Sprintf("collections[%s]", cc.Name)
		es = append(es, templateLimits(cc.Template, field+".template", true)...)
		if n := len(cc.Indexes) + 1; n > maxIndexesOfOne {
			es = append(es, &config.Error{Kind: config.Invalid, Line: cc.Line, Field: field + ".indexes",
				Msg: fmt.Sprintf("%d indexes with _id's: MongoDB allows %d per collection; drop some", n, maxIndexesOfOne)})
		}
		for j, ix := range cc.Indexes {
			if n := len(ix.Keys.Fields); n > maxIndexFields {
				es = append(es, &config.Error{Kind: config.Invalid, Line: ix.Keys.Line, Field: fmt.Sprintf("%s.indexes[%d].keys", field, j),
					Msg: fmt.Sprintf("%d fields: MongoDB indexes at most %d fields in one compound index", n, maxIndexFields)})
			}
		}
	}
	var walk func(ops []config.Operation, prefix string)
	walk = func(ops []config.Operation, prefix string) {
		for i := range ops {
			op := &ops[i]
			field := fmt.Sprintf("%s[%d]", prefix, i)
			for _, t := range []struct {
				name string
				v    config.Value
				doc  bool // stored as a document: its size counts
			}{{"document", op.Document, true}, {"filter", op.Filter, false}, {"update", op.Update, false}, {"pipeline", op.Pipeline, false}} {
				if !t.v.IsZero() {
					es = append(es, templateLimits(t.v, field+"."+t.name, t.doc)...)
				}
			}
			walk(op.Steps, field+".steps")
		}
	}
	walk(cfg.Operations, "operations")
	return es
}

// templateLimits checks one template's nesting and, for a stored
// document, its largest size.
func templateLimits(v config.Value, field string, stored bool) config.Errors {
	var es config.Errors
	if d := nesting(v); d > maxNesting {
		es = append(es, &config.Error{Kind: config.Invalid, Line: v.Line, Field: field,
			Msg: fmt.Sprintf("nested %d levels deep: MongoDB refuses documents nested beyond %d levels; flatten it", d, maxNesting)})
	}
	if n := largest(v); stored && n > maxDocument {
		es = append(es, &config.Error{Kind: config.Invalid, Line: v.Line, Field: field,
			Msg: fmt.Sprintf("its documents can reach %.1f MB: MongoDB refuses documents over 16 MB; lower the largest length or max of its strings, binary values or arrays", n/1024/1024)})
	}
	return es
}

// nesting is how many documents and arrays v nests, itself included.
func nesting(v config.Value) int {
	d := 0
	for _, f := range v.Fields {
		d = max(d, nesting(f.Value))
	}
	for _, it := range v.Items {
		d = max(d, nesting(it))
	}
	switch {
	case v.Kind == config.KindDoc || v.Kind == config.KindArray:
		return d + 1
	case v.Kind == config.KindGen && v.Gen == "array":
		return d + 1 // its elements, from "of", are one level down
	}
	return d // a generator's parameters: as deep as what it makes of them
}

// largest is the largest BSON size of v counting only what is known:
// literals, and the lengths of strings, binary values and arrays.
func largest(v config.Value) float64 {
	switch v.Kind {
	case config.KindScalar:
		if s, ok := v.Scalar.(string); ok {
			return float64(len(s) + 5)
		}
		return 8
	case config.KindDoc, config.KindArray:
		n := 5.0
		for _, f := range v.Fields {
			n += float64(len(f.Key)+2) + largest(f.Value)
		}
		for i, it := range v.Items {
			n += float64(len(strconv.Itoa(i))+2) + largest(it)
		}
		return n
	case config.KindGen:
		switch v.Gen {
		case "string", "binary":
			return float64(maxLength(v, 10)) + 5
		case "array":
			of, _ := v.Param("of")
			return 5 + float64(maxLength(v, 10))*(largest(of)+9)
		}
	}
	return 0
}

// maxLength is a generator's length, or its max (def when neither).
func maxLength(v config.Value, def int64) int64 {
	for _, k := range []string{"length", "max"} {
		if p, ok := v.Param(k); ok {
			if n, ok := p.Scalar.(int64); ok {
				return n
			}
		}
	}
	return def
}
