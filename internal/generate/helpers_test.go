package generate

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.yaml.in/yaml/v3"

	"github.com/mongoload/mongoload/internal/config"
)

// parse reads a template written in YAML, the way package config does.
func parse(t testing.TB, src string) config.Value {
	t.Helper()
	var v config.Value
	if err := yaml.Unmarshal([]byte(src), &v); err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	return v
}

// testEnv is an Env with the template's own key space holding keys
// [0, 100) and a "users" key space holding [1000, 1050).
func testEnv(mode Mode) *Env {
	own, users := NewKeySpace(0, 100), NewKeySpace(1000, 50)
	return &Env{
		Mode:     mode,
		PoolSize: 64,
		Seed:     42,
		Vars:     []string{"amount"},
		KeySpace: func(name string) *KeySpace {
			switch name {
			case "":
				return own
			case "users":
				return users
			}
			return nil
		},
	}
}

// compile compiles src or fails the test.
func compile(t testing.TB, src string, env *Env) Generator {
	t.Helper()
	g, err := Compile(parse(t, src), env)
	if err != nil {
		t.Fatalf("compile %q: %v", src, err)
	}
	return g
}

// draw appends one value of g and checks that it is well-formed BSON.
func draw(t testing.TB, g Generator, st *State) bson.RawValue {
	t.Helper()
	typ, b := g.Append(nil, st)
	rv := bson.RawValue{Type: typ, Value: b}
	if err := rv.Validate(); err != nil {
		t.Fatalf("invalid BSON %v %x: %v", typ, b, err)
	}
	return rv
}

// wrapDoc wraps a value into a one-field document {v: value}, which also
// checks that the value's length matches what it claims.
func wrapDoc(typ bson.Type, val []byte) bson.Raw {
	start, doc := reserve(nil)
	doc = append(doc, byte(typ), 'v', 0)
	doc = append(doc, val...)
	return bson.Raw(closeDoc(doc, start))
}
