package config

import (
	"encoding/json"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestLimit protects the two forms of an operation's limit and the
// readModifyWrite operation type.
func TestLimit(t *testing.T) {
	find := `
collections:
  - {database: db, name: c, template: {a: 1}}
operations:
  - {name: scan, type: find, weight: 1, filter: {a: 1}, LIMIT}
`
	tests := []struct {
		name  string
		limit string
		want  string // the error, "" when valid
		check func(l Limit) bool
	}{
		// a whole number, as ever
		{"number", "limit: 10", "", func(l Limit) bool { return l.N == 10 && !l.Generated() }},
		// drawn per call, YCSB's scan length
		{"generated", "limit: {$gen: int, min: 1, max: 100}", "", func(l Limit) bool { return l.Generated() && l.Gen.Gen == "int" }},
		// neither a number nor a generator
		{"string", "limit: lots", "w.yaml:5: limit: a limit is a whole number or a generator", nil},
		// a document that is not a generator call
		{"document", "limit: {max: 3}", "w.yaml:5: limit: a limit is a whole number or a generator", nil},
		// negative
		{"negative", "limit: -1", "limit cannot be negative", nil},
		// only find draws a limit per call
		{"generated count", "limit: {$gen: int, min: 1, max: 3}, type: countDocuments", "only find draws its limit per call", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := strings.Replace(find, "LIMIT", tt.limit, 1)
			if strings.Contains(tt.limit, "countDocuments") {
				src = strings.Replace(src, "type: find, ", "", 1)
			}
			cfg, err := Parse([]byte(src), "w.yaml")
			if err == nil {
				err = cfg.Validate().Err()
			}
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("got %v, want %q", err, tt.want)
			case tt.want == "" && !tt.check(cfg.Operations[0].Limit):
				t.Fatalf("limit %+v", cfg.Operations[0].Limit)
			}
		})
	}
}

// TestLimitMarshal: the effective configuration shows the limit as written.
func TestLimitMarshal(t *testing.T) {
	var op Operation
	if err := yaml.Unmarshal([]byte("limit: {$gen: int, min: 1, max: 100}"), &op); err != nil {
		t.Fatal(err)
	}
	j, _ := json.Marshal(op)
	if !strings.Contains(string(j), `"limit":"{$gen: int, min: 1, max: 100}"`) {
		t.Errorf("JSON %s", j)
	}
	y, _ := yaml.Marshal(op)
	if !strings.Contains(string(y), "limit: {$gen: int, min: 1, max: 100}") {
		t.Errorf("YAML %s", y)
	}
	j, _ = json.Marshal(Operation{Limit: Limit{N: 5}})
	if !strings.Contains(string(j), `"limit":5`) {
		t.Errorf("JSON %s", j)
	}
	if j, _ = json.Marshal(Operation{}); strings.Contains(string(j), "limit") {
		t.Errorf("no limit shows in JSON: %s", j)
	}
}

// TestReadModifyWrite: the operation needs a filter and an update.
func TestReadModifyWrite(t *testing.T) {
	src := strings.Replace(base, "type: findOne, weight: 1, filter: {a: 1}", "type: readModifyWrite, weight: 1, filter: {a: 1}", 1)
	cfg, err := Parse([]byte(src), "w.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate().Err(); err == nil || !strings.Contains(err.Error(), "readModifyWrite needs update") {
		t.Fatalf("got %v", err)
	}
	src = strings.Replace(src, "filter: {a: 1}", "filter: {a: 1}, update: {$set: {a: 2}}, projection: {a: 1}", 1)
	if cfg, err = Parse([]byte(src), "w.yaml"); err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate().Err(); err != nil {
		t.Fatal(err)
	}
}
