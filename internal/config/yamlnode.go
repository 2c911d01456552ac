package config

import (
	"io"
	"math"
	"strconv"
	"time"

	"go.yaml.in/yaml/v3"
)

// The writers of workload files (mongoload import plgm, mongoload
// capture) build YAML nodes with these, so that what they write reads
// back as the same values: a whole double keeps its ".0", a date its
// timestamp form.

// YAMLString writes a string, quoted when it would read as something else.
func YAMLString(s string) *yaml.Node {
	n := &yaml.Node{}
	_ = n.Encode(s)
	return n
}

// YAMLNumber encodes a number or a boolean; a whole float keeps its ".0" so
// that it reads back as a double, not an integer.
func YAMLNumber(x any) *yaml.Node {
	if f, ok := x.(float64); ok && f == math.Trunc(f) && !math.IsInf(f, 0) && math.Abs(f) < 1e15 {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: strconv.FormatFloat(f, 'f', 1, 64)}
	}
	n := &yaml.Node{}
	_ = n.Encode(x)
	return n
}

// YAMLPair appends key: v to the mapping m and returns the key's node,
// which carries a comment about the pair.
func YAMLPair(m *yaml.Node, key string, v *yaml.Node) *yaml.Node {
	k := YAMLString(key)
	m.Content = append(m.Content, k, v)
	return k
}

// YAMLIndexes writes a collection's indexes, each with only the settings
// it has.
func YAMLIndexes(ixs []Index) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode}
	for _, ix := range ixs {
		m := &yaml.Node{Kind: yaml.MappingNode}
		if ix.Name != "" {
			YAMLPair(m, "name", YAMLString(ix.Name))
		}
		YAMLPair(m, "keys", YAMLValue(ix.Keys, false))
		if ix.Unique {
			YAMLPair(m, "unique", YAMLNumber(true))
		}
		if ix.Sparse {
			YAMLPair(m, "sparse", YAMLNumber(true))
		}
		if ix.TTL > 0 {
			YAMLPair(m, "ttl", YAMLString(ix.TTL.String()))
		}
		if !ix.Partial.IsZero() {
			YAMLPair(m, "partialFilterExpression", YAMLValue(ix.Partial, false))
		}
		n.Content = append(n.Content, m)
	}
	return n
}

// EncodeYAML writes root as a YAML document indented by two spaces.
func EncodeYAML(w io.Writer, root *yaml.Node) error {
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return err
	}
	return enc.Close()
}

// YAMLValue writes a template value; block writes documents as indented
// mappings (a collection's template), generator calls and lists always in
// flow style.
func YAMLValue(v Value, block bool) *yaml.Node {
	switch v.Kind {
	case KindNull:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	case KindScalar:
		switch s := v.Scalar.(type) {
		case string:
			return YAMLString(s)
		case time.Time:
			if u := s.UTC(); u.Equal(u.Truncate(24 * time.Hour)) {
				return &yaml.Node{Kind: yaml.ScalarNode, Value: u.Format("2006-01-02")}
			}
			return &yaml.Node{Kind: yaml.ScalarNode, Value: s.UTC().Format(time.RFC3339Nano)}
		}
		return YAMLNumber(v.Scalar)
	case KindArray:
		n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, it := range v.Items {
			n.Content = append(n.Content, YAMLValue(it, false))
		}
		return n
	}
	n := &yaml.Node{Kind: yaml.MappingNode}
	if v.Kind == KindGen || !block || len(v.Fields) == 0 {
		n.Style = yaml.FlowStyle
		block = false
	}
	if v.Kind == KindGen {
		n.Content = append(n.Content, YAMLString(GenKey), YAMLString(v.Gen))
	}
	for _, f := range v.Fields {
		n.Content = append(n.Content, YAMLString(f.Key), YAMLValue(f.Value, block))
	}
	return n
}

// ParseValue reads a template value written in YAML ("{$gen: int, min:
// 1, max: 9}"), for a writer that builds a configuration from parts.
func ParseValue(text string) (Value, error) {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(text), &n); err != nil {
		return Value{}, err
	}
	return valueFromNode(&n)
}
