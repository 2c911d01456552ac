package generate

import (
	"strconv"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/config"
)

// elements is a compiled document or array: runs of pre-encoded literal
// elements, each followed by at most one generated element.
type elements struct {
	t    bson.Type // TypeEmbeddedDocument or TypeArray
	segs []segment
}

// segment is raw (pre-encoded elements, copied verbatim) then, when gen is
// set, one generated element.
type segment struct {
	raw     []byte
	head    []byte // type placeholder, key, NUL
	gen     Generator
	missing float64 // probability that the generated element is left out
}

// element is one compiled field or array item on its way into elements.
type element struct {
	key     string
	gen     Generator
	missing float64
}

// Append implements Generator.
func (e *elements) Append(dst []byte, st *State) (bson.Type, []byte) {
	start, dst := reserve(dst)
	for i := range e.segs {
		s := &e.segs[i]
		dst = append(dst, s.raw...)
		if s.gen == nil || (s.missing > 0 && st.Rand.Float64() < s.missing) {
			continue
		}
		// The type is only known once the value is written, so the head
		// carries a placeholder type byte that is patched afterwards.
		at := len(dst)
		dst = append(dst, s.head...)
		var t bson.Type
		t, dst = s.gen.Append(dst, st)
		dst[at] = byte(t)
	}
	return e.t, closeDoc(dst, start)
}

// buildElements folds the compiled elements of a document or array. When
// every element is a literal the whole container becomes one literal.
func buildElements(t bson.Type, els []element) Generator {
	e := &elements{t: t}
	var raw []byte
	for _, el := range els {
		if l, ok := asLiteral(el.gen); ok && el.missing == 0 {
			raw = append(raw, byte(l.t))
			raw = append(raw, el.key...)
			raw = append(raw, 0)
			raw = append(raw, l.b...)
			continue
		}
		head := append([]byte{0}, el.key...)
		e.segs = append(e.segs, segment{raw: raw, head: append(head, 0), gen: el.gen, missing: el.missing})
		raw = nil
	}
	if len(e.segs) == 0 {
		start, b := reserve(nil)
		return &literal{t: t, b: closeDoc(append(b, raw...), start)}
	}
	if raw != nil {
		e.segs = append(e.segs, segment{raw: raw})
	}
	return e
}

// document compiles a document template.
func (c *compiler) document(v config.Value) (Generator, error) {
	els := make([]element, 0, len(v.Fields))
	for _, f := range v.Fields {
		if strings.IndexByte(f.Key, 0) >= 0 {
			return nil, config.Errorf(config.Invalid, f.Value.Line, "key %q contains a NUL byte, which BSON keys cannot hold", f.Key)
		}
		g, missing, err := c.field(f.Value)
		if err != nil {
			return nil, err
		}
		els = append(els, element{key: f.Key, gen: g, missing: missing})
	}
	return buildElements(bson.TypeEmbeddedDocument, els), nil
}

// array compiles an array template; its keys are "0", "1", ...
func (c *compiler) array(v config.Value) (Generator, error) {
	els := make([]element, 0, len(v.Items))
	for i, it := range v.Items {
		g, err := c.value(it)
		if err != nil {
			return nil, err
		}
		els = append(els, element{key: strconv.Itoa(i), gen: g})
	}
	return buildElements(bson.TypeArray, els), nil
}
