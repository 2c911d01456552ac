package plgm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// kind is what a JSON node holds.
type kind uint8

const (
	jsonNull kind = iota
	jsonBool
	jsonNumber
	jsonString
	jsonArray
	jsonObject
)

func (k kind) String() string {
	return [...]string{"null", "a boolean", "a number", "a string", "a list", "an object"}[k]
}

// node is one JSON value with its line, objects keeping their key order:
// plgm reads its definitions into Go maps, which forget the order of
// fields, but a document's field order is part of its shape, so mongoload
// keeps the order of the file.
type node struct {
	kind   kind
	b      bool
	num    json.Number
	str    string
	items  []*node
	fields []member
	line   int
}

type member struct {
	key  string
	val  *node
	line int
}

// get returns the value of key in an object, nil when absent.
func (n *node) get(key string) *node {
	if n == nil || n.kind != jsonObject {
		return nil
	}
	for _, f := range n.fields {
		if f.key == key {
			return f.val
		}
	}
	return nil
}

// parseJSON reads one JSON document.
func parseJSON(data []byte) (*node, error) {
	p := &jsonParser{dec: json.NewDecoder(bytes.NewReader(data)), data: data}
	p.dec.UseNumber()
	n, err := p.value()
	if err != nil {
		return nil, err
	}
	if _, err := p.dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("line %d: unexpected text after the JSON document", p.line())
	}
	return n, nil
}

type jsonParser struct {
	dec  *json.Decoder
	data []byte
}

// line is the line of the decoder's position.
func (p *jsonParser) line() int {
	off := min(int(p.dec.InputOffset()), len(p.data))
	return 1 + bytes.Count(p.data[:off], []byte{'\n'})
}

func (p *jsonParser) token() (json.Token, int, error) {
	// The token starts after the whitespace that follows the offset.
	off := int(p.dec.InputOffset())
	for off < len(p.data) && strings.ContainsRune(" \t\r\n,:", rune(p.data[off])) {
		off++
	}
	line := 1 + bytes.Count(p.data[:min(off, len(p.data))], []byte{'\n'})
	t, err := p.dec.Token()
	if err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line = 1 + bytes.Count(p.data[:min(int(se.Offset), len(p.data))], []byte{'\n'})
			return nil, line, fmt.Errorf("line %d: malformed JSON: %v", line, se)
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, line, fmt.Errorf("line %d: the JSON ends too early", line)
		}
		return nil, line, fmt.Errorf("line %d: %v", line, err)
	}
	return t, line, nil
}

func (p *jsonParser) value() (*node, error) {
	t, line, err := p.token()
	if err != nil {
		return nil, err
	}
	switch v := t.(type) {
	case json.Delim:
		switch v {
		case '{':
			return p.object(line)
		case '[':
			return p.array(line)
		}
		return nil, fmt.Errorf("line %d: unexpected %q", line, v)
	case string:
		return &node{kind: jsonString, str: v, line: line}, nil
	case json.Number:
		return &node{kind: jsonNumber, num: v, line: line}, nil
	case bool:
		return &node{kind: jsonBool, b: v, line: line}, nil
	case nil:
		return &node{kind: jsonNull, line: line}, nil
	}
	return nil, fmt.Errorf("line %d: unexpected token %v", line, t)
}

func (p *jsonParser) object(line int) (*node, error) {
	n := &node{kind: jsonObject, line: line}
	seen := map[string]bool{}
	for p.dec.More() {
		t, kline, err := p.token()
		if err != nil {
			return nil, err
		}
		key, _ := t.(string)
		if seen[key] {
			return nil, fmt.Errorf("line %d: key %q appears twice in one object", kline, key)
		}
		seen[key] = true
		val, err := p.value()
		if err != nil {
			return nil, err
		}
		n.fields = append(n.fields, member{key: key, val: val, line: kline})
	}
	_, _, err := p.token() // '}'
	return n, err
}

func (p *jsonParser) array(line int) (*node, error) {
	n := &node{kind: jsonArray, line: line}
	for p.dec.More() {
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		n.items = append(n.items, v)
	}
	_, _, err := p.token() // ']'
	return n, err
}
