package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// ValueKind says what a template Value holds.
type ValueKind uint8

// The kinds of template values.
const (
	KindNull   ValueKind = iota // YAML null
	KindScalar                  // string, int64, float64, bool or time.Time in Scalar
	KindDoc                     // ordered Fields
	KindArray                   // Items
	KindGen                     // a generator call {$gen: name, params...}: Gen and Fields (params)
)

// GenKey is the key that turns a mapping into a generator call.
const GenKey = "$gen"

// VarKey reads a transaction's let variable: {$var: name}.
const VarKey = "$var"

// Value is one node of a document, filter, update or pipeline template.
// Documents keep their key order because BSON documents (index keys, sort
// specs, pipeline stages) are ordered.
type Value struct {
	Kind   ValueKind
	Line   int    // line in the source file, 0 for built-in workloads
	Scalar any    // KindScalar: string, int64, float64, bool, time.Time
	Gen    string // KindGen: generator name
	Fields []Field
	Items  []Value
}

// Field is one key of a document (or one parameter of a generator call).
type Field struct {
	Key   string
	Value Value
}

// Param returns the generator parameter or document field named key.
func (v *Value) Param(key string) (Value, bool) {
	for _, f := range v.Fields {
		if f.Key == key {
			return f.Value, true
		}
	}
	return Value{}, false
}

// IsZero reports whether v was never set (absent from the file).
func (v *Value) IsZero() bool {
	return v.Kind == KindNull && v.Line == 0 && v.Scalar == nil
}

// UnmarshalYAML converts a YAML node into a Value, keeping order and lines.
func (v *Value) UnmarshalYAML(n *yaml.Node) error {
	out, err := valueFromNode(n)
	if err != nil {
		return err
	}
	*v = out
	return nil
}

func valueFromNode(n *yaml.Node) (Value, error) {
	switch n.Kind {
	case yaml.AliasNode:
		return valueFromNode(n.Alias)
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return Value{Kind: KindNull, Line: n.Line}, nil
		}
		return valueFromNode(n.Content[0])
	case yaml.SequenceNode:
		v := Value{Kind: KindArray, Line: n.Line, Items: make([]Value, 0, len(n.Content))}
		for _, c := range n.Content {
			item, err := valueFromNode(c)
			if err != nil {
				return Value{}, err
			}
			v.Items = append(v.Items, item)
		}
		return v, nil
	case yaml.MappingNode:
		return mappingValue(n)
	case yaml.ScalarNode:
		return scalarValue(n)
	}
	return Value{}, fmt.Errorf("line %d: unsupported YAML node", n.Line)
}

func mappingValue(n *yaml.Node) (Value, error) {
	v := Value{Kind: KindDoc, Line: n.Line, Fields: make([]Field, 0, len(n.Content)/2)}
	seen := make(map[string]bool, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Kind != yaml.ScalarNode {
			return Value{}, fmt.Errorf("line %d: document keys must be strings", k.Line)
		}
		if seen[k.Value] {
			return Value{}, fmt.Errorf("line %d: key %q appears twice in one document", k.Line, k.Value)
		}
		seen[k.Value] = true
		child, err := valueFromNode(n.Content[i+1])
		if err != nil {
			return Value{}, err
		}
		if k.Value == VarKey {
			// {$var: name} is short for {$gen: var, name: name}.
			name, ok := child.Scalar.(string)
			if child.Kind != KindScalar || !ok || name == "" {
				return Value{}, fmt.Errorf("line %d: %s takes the name of a let variable, for example {%s: card}", k.Line, VarKey, VarKey)
			}
			v.Kind, v.Gen = KindGen, "var"
			v.Fields = append(v.Fields, Field{Key: "name", Value: Value{Kind: KindScalar, Line: k.Line, Scalar: name}})
			continue
		}
		if k.Value == GenKey {
			name, ok := child.Scalar.(string)
			if child.Kind != KindScalar || !ok || name == "" {
				return Value{}, fmt.Errorf("line %d: %s takes a generator name, for example {%s: int, min: 1, max: 10}", k.Line, GenKey, GenKey)
			}
			v.Kind, v.Gen = KindGen, name
			continue
		}
		v.Fields = append(v.Fields, Field{Key: k.Value, Value: child})
	}
	return v, nil
}

func scalarValue(n *yaml.Node) (Value, error) {
	v := Value{Kind: KindScalar, Line: n.Line}
	switch n.ShortTag() {
	case "!!null":
		v.Kind = KindNull
	case "!!bool":
		b, err := strconv.ParseBool(strings.ToLower(n.Value))
		if err != nil {
			return Value{}, fmt.Errorf("line %d: %q is not a boolean", n.Line, n.Value)
		}
		v.Scalar = b
	case "!!int":
		i, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64)
		if err != nil {
			return Value{}, fmt.Errorf("line %d: %q is not a 64-bit integer", n.Line, n.Value)
		}
		v.Scalar = i
	case "!!float":
		f, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64)
		if err != nil {
			return Value{}, fmt.Errorf("line %d: %q is not a number", n.Line, n.Value)
		}
		v.Scalar = f
	case "!!timestamp":
		var t time.Time
		if err := n.Decode(&t); err != nil {
			return Value{}, fmt.Errorf("line %d: %q is not a timestamp", n.Line, n.Value)
		}
		v.Scalar = t
	default:
		v.Scalar = n.Value
	}
	return v, nil
}

// String renders v compactly, for messages and --print-config.
func (v Value) String() string {
	var b strings.Builder
	v.write(&b)
	return b.String()
}

func (v Value) write(b *strings.Builder) {
	switch v.Kind {
	case KindNull:
		b.WriteString("null")
	case KindScalar:
		if s, ok := v.Scalar.(string); ok {
			b.WriteString(strconv.Quote(s))
		} else if t, ok := v.Scalar.(time.Time); ok {
			b.WriteString(t.Format(time.RFC3339))
		} else {
			fmt.Fprint(b, v.Scalar)
		}
	case KindArray:
		b.WriteByte('[')
		for i, it := range v.Items {
			if i > 0 {
				b.WriteString(", ")
			}
			it.write(b)
		}
		b.WriteByte(']')
	case KindDoc, KindGen:
		b.WriteByte('{')
		if v.Kind == KindGen {
			b.WriteString(GenKey + ": " + v.Gen)
		}
		for i, f := range v.Fields {
			if i > 0 || v.Kind == KindGen {
				b.WriteString(", ")
			}
			b.WriteString(f.Key + ": ")
			f.Value.write(b)
		}
		b.WriteByte('}')
	}
}

// MarshalYAML writes v back as YAML (for --print-config), in flow style.
func (v Value) MarshalYAML() (any, error) {
	return v.node(), nil
}

func (v Value) node() *yaml.Node {
	switch v.Kind {
	case KindNull:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	case KindScalar:
		n := &yaml.Node{}
		_ = n.Encode(v.Scalar)
		return n
	case KindArray:
		n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, it := range v.Items {
			n.Content = append(n.Content, it.node())
		}
		return n
	}
	n := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
	if v.Kind == KindGen {
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: GenKey}, &yaml.Node{Kind: yaml.ScalarNode, Value: v.Gen})
	}
	for _, f := range v.Fields {
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: f.Key}, f.Value.node())
	}
	return n
}
