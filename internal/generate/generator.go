package generate

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/config"
)

// Generator appends one BSON value (the value bytes only: no type byte, no
// key) to dst and returns the value's BSON type and the extended slice.
// A compiled Generator is immutable and safe for concurrent use; all
// per-worker state lives in the State passed to Append.
type Generator interface {
	Append(dst []byte, st *State) (bson.Type, []byte)
}

// Mode decides what the "key" generator hands out.
type Mode uint8

// The key modes.
const (
	Query  Mode = iota // an existing key, drawn by the generator's distribution
	Insert             // a new key from the key space
)

// defaultPoolSize is the number of values in a realistic-value pool when
// Env.PoolSize is 0.
const defaultPoolSize = 4096

// Env is what a template is compiled against.
type Env struct {
	Mode Mode
	// KeySpace returns the key space of the named collection; "" means the
	// template's own collection. A nil result makes the key generator fail
	// with "unknown collection".
	KeySpace func(collection string) *KeySpace
	PoolSize int    // distinct values per realistic-value pool; 0 means 4096
	Seed     uint64 // seeds the pools so a run is reproducible
	// Vars names the let variables a transaction step may read ({$var: name}).
	Vars []string
}

// Compile turns any template value into a Generator.
func Compile(v config.Value, env *Env) (Generator, error) {
	return newCompiler(env).value(v)
}

// Document is a compiled document template.
type Document struct{ g Generator }

// CompileDocument compiles a document template. v must be a document, or
// an enum of documents (a choice of whole filters, such as the
// combinations of values a captured filter ran with); a null (absent)
// value compiles to the empty document.
func CompileDocument(v config.Value, env *Env) (*Document, error) {
	switch v.Kind {
	case config.KindNull:
		v = config.Value{Kind: config.KindDoc, Line: v.Line}
	case config.KindDoc:
	case config.KindGen:
		if !documentChoice(v) {
			return nil, config.Errorf(config.Invalid, v.Line, "expected a document, or an enum of documents, got %s", v)
		}
	default:
		return nil, config.Errorf(config.Invalid, v.Line, "expected a document, got %s", v)
	}
	g, err := newCompiler(env).value(v)
	if err != nil {
		return nil, err
	}
	return &Document{g: g}, nil
}

// Append appends one whole BSON document to dst.
func (d *Document) Append(dst []byte, st *State) []byte {
	st.beginDocument()
	_, dst = d.g.Append(dst, st)
	return dst
}

// Array is a compiled array template, such as an aggregation pipeline.
type Array struct{ g Generator }

// CompileArray compiles an array template; v must be an array.
func CompileArray(v config.Value, env *Env) (*Array, error) {
	if v.Kind != config.KindArray {
		return nil, config.Errorf(config.Invalid, v.Line, "expected an array, got %s", v)
	}
	g, err := newCompiler(env).value(v)
	if err != nil {
		return nil, err
	}
	return &Array{g: g}, nil
}

// Append appends one whole BSON array to dst.
func (a *Array) Append(dst []byte, st *State) []byte {
	_, dst = a.g.Append(dst, st)
	return dst
}

// documentChoice: v is an enum whose values are all documents.
func documentChoice(v config.Value) bool {
	vals, ok := v.Param("values")
	if v.Gen != "enum" || !ok || vals.Kind != config.KindArray || len(vals.Items) == 0 {
		return false
	}
	for _, it := range vals.Items {
		if it.Kind != config.KindDoc {
			return false
		}
	}
	return true
}
