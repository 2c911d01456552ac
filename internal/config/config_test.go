package config

import (
	"strings"
	"testing"
)

const base = `
collections:
  - database: db
    name: c
    template: {a: 1}
operations:
  - {name: get, type: findOne, weight: 1, filter: {a: 1}}
`

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		kind Kind
		want string // "" means valid
	}{
		// The base workload is valid.
		{"valid", base, 0, ""},
		// An operation type that does not exist, with a suggestion.
		{"unknown type", strings.Replace(base, "type: findOne", "type: findone", 1), UnknownOperation, `did you mean "findOne"`},
		// Negative weights make no sense.
		{"negative weight", strings.Replace(base, "weight: 1", "weight: -2", 1), Invalid, "operations[0].weight: -2 is out of range"},
		// Templates an operation type does not take are refused, not ignored.
		{"template not taken", strings.Replace(base, "filter: {a: 1}", "filter: {a: 1}, pipeline: [{$match: {}}]", 1), Invalid, "pipeline has no meaning for findOne"},
		// Templates an operation type needs.
		{"missing update", strings.Replace(base, "type: findOne", "type: updateOne", 1), Invalid, "updateOne needs update"},
		// deleteMany with an empty filter would wipe the collection.
		{"deleteMany empty", strings.Replace(base, "type: findOne, weight: 1, filter: {a: 1}", "type: deleteMany, weight: 1, filter: {}", 1), Invalid, "whole collection"},
		// An operation on a collection that is not in the workload.
		{"unknown collection", strings.Replace(base, "weight: 1,", "weight: 1, collection: d,", 1), Invalid, `no collection "d"`},
		// Read preferences are checked with a suggestion.
		{"read preference", base + "connection: {readPreference: secondaryPrefered}\n", Invalid, `did you mean "secondaryPreferred"`},
		// Index directions are checked.
		{"index direction", strings.Replace(base, "template: {a: 1}", "template: {a: 1}\n    indexes: [{keys: {a: 2}}]", 1), Invalid, "index direction"},
		// Durations are parsed with a hint.
		{"bad duration", base + "run: {duration: soon}\n", Invalid, "not a duration"},
		// Zero concurrency.
		{"concurrency", base + "run: {concurrency: 0}\n", Invalid, "w.yaml: run.concurrency: 0 is out of range: give a number of workers from 1"},
		// NaN and the infinities are not numbers (issue 30).
		{"rate .inf", base + "run: {rate: .inf}\n", Invalid, "w.yaml: run.rate: +Inf is not finite"},
		{"rate .nan", base + "run: {rate: .nan}\n", Invalid, "w.yaml: run.rate: NaN is not a number"},
		// A type mismatch is located.
		{"type mismatch", base + "run: {concurrency: many}\n", Invalid, "w.yaml:8: wrong type: `many` is a string, where a whole number is expected"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Parse([]byte(tt.yaml), "w.yaml")
			if err == nil {
				err = cfg.Validate().Err()
			}
			if tt.want == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want it to contain %q", err, tt.want)
			}
			if k, _ := KindOf(err); k != tt.kind {
				t.Fatalf("kind %d, want %d (%v)", k, tt.kind, err)
			}
		})
	}
}

// TestValidateReportsEveryProblem: all problems at once, not one per attempt.
func TestValidateReportsEveryProblem(t *testing.T) {
	cfg, err := Parse([]byte(base+"run: {concurrency: 0, interval: 1ms}\n"), "w.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if es := cfg.Validate(); len(es) != 2 {
		t.Fatalf("%d problems, want 2: %v", len(es), es)
	}
}

func TestUnknownKeysAtAnyDepth(t *testing.T) {
	y := strings.Replace(base, "template: {a: 1}", "template: {a: 1}\n    indexs: []", 1) + "connection: {timeouts: {conect: 1s}}\n"
	_, err := Parse([]byte(y), "w.yaml")
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{`collections[0].indexs: unknown key (did you mean "indexes"?)`, `connection.timeouts.conect: unknown key (did you mean "connect"?)`, "w.yaml:6"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q missing from %v", want, err)
		}
	}
}

// TestValueKeepsOrder: BSON documents are ordered (index keys, sort specs).
func TestValueKeepsOrder(t *testing.T) {
	cfg, err := Parse([]byte(strings.Replace(base, "template: {a: 1}", "template: {z: 1, a: 2, m: {$gen: int, min: 1, max: 2}}", 1)), "w.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tpl := cfg.Collections[0].Template
	if got := tpl.String(); got != "{z: 1, a: 2, m: {$gen: int, min: 1, max: 2}}" {
		t.Fatalf("template %s", got)
	}
}

func TestRedactURI(t *testing.T) {
	tests := []struct{ in, want string }{
		{"mongodb://u:p@h:1/db", "mongodb://u:" + Redacted + "@h:1/db"},                                        // user and password
		{"mongodb://u@h", "mongodb://u@h"},                                                                     // no password
		{"mongodb+srv://u:p%40ss@cluster.x/?tls=true", "mongodb+srv://u:" + Redacted + "@cluster.x/?tls=true"}, // escaped @ in the password
		{"mongodb://h1:1,h2:2/?replicaSet=r", "mongodb://h1:1,h2:2/?replicaSet=r"},                             // no credentials
		{"mongodb://u:p@h/?authSource=a@b", "mongodb://u:" + Redacted + "@h/?authSource=a@b"},                  // @ after the host
	}
	for _, tt := range tests {
		if got := RedactURI(tt.in); got != tt.want {
			t.Errorf("RedactURI(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(base))
	f.Add([]byte("{\"collections\": [{\"name\": \"x\", \"template\": {\"a\": {\"$gen\": \"int\"}}}]}"))
	f.Add([]byte("a: [1, {b: *x}]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Parse(data, "f.yaml")
		if err != nil {
			if _, ok := KindOf(err); !ok {
				t.Fatalf("unclassified error %v", err)
			}
			return
		}
		_ = cfg.Validate()
	})
}
