package config

import (
	"encoding/json"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Limit is an operation's limit: a whole number, or a generator drawn
// anew for every call, such as {$gen: int, min: 1, max: 100} (YCSB's scan
// length). The zero Limit means no limit.
type Limit struct {
	N   int64 // the fixed limit; 0 for none
	Gen Value // KindGen when the limit is drawn per call
}

// IsZero reports whether there is no limit.
func (l Limit) IsZero() bool { return l.N == 0 && !l.Generated() }

// Generated reports whether the limit is drawn per call.
func (l Limit) Generated() bool { return l.Gen.Kind == KindGen }

// UnmarshalYAML reads a whole number or a {$gen: ...} generator call.
func (l *Limit) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!int" {
		v, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64)
		if err == nil {
			*l = Limit{N: v}
			return nil
		}
	}
	if n.Kind == yaml.MappingNode {
		v, err := valueFromNode(n)
		if err != nil {
			return err
		}
		if v.Kind == KindGen {
			*l = Limit{Gen: v}
			return nil
		}
	}
	return &Error{Kind: Invalid, Line: n.Line, Field: "limit",
		Msg: "a limit is a whole number or a generator, for example limit: 10 or limit: {$gen: int, min: 1, max: 100}"}
}

// MarshalYAML writes the number or the generator call.
func (l Limit) MarshalYAML() (any, error) {
	if l.Generated() {
		return l.Gen.MarshalYAML()
	}
	return l.N, nil
}

// MarshalJSON writes the number, or the generator call as a string.
func (l Limit) MarshalJSON() ([]byte, error) {
	if l.Generated() {
		return json.Marshal(l.Gen.String())
	}
	return json.Marshal(l.N)
}
