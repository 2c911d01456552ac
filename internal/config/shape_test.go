package config

import (
	"strings"
	"testing"
)

// TestTypeErrorsInTheAuthorsWords is issue 25 #14: collections written as
// a mapping read "cannot unmarshal !!map into []config.Collection". Each
// shape error is one line with the file, line, field and the fix, and no
// Go type names.
func TestTypeErrorsInTheAuthorsWords(t *testing.T) {
	const ops = "operations:\n  - {name: get, type: findOne, weight: 1}\n"
	const cols = "collections:\n  - {database: d, name: c, template: {k: 1}}\n"
	tests := []struct {
		name, src string
		want      []string
	}{
		{"collections as a mapping", "collections:\n  c1:\n    database: d\n" + ops, []string{"w.yaml:2: collections: wrong type: a mapping, where a list is expected", `starting with "- "`}},
		{"operations as a value", cols + "operations: all\n", []string{"w.yaml:3: operations: wrong type", `"all"`, "where a list is expected"}},
		{"indexes as a mapping", "collections:\n  - {database: d, name: c, template: {k: 1}, indexes: {keys: {k: 1}}}\n" + ops, []string{"collections[0].indexes: wrong type: a mapping, where a list"}},
		{"run as a value", cols + ops + "run: 5\n", []string{"w.yaml:5: run: wrong type", "where a mapping is expected", "indented under run:"}},
		{"a number as a list", cols + ops + "run:\n  concurrency: [1, 2]\n", []string{"w.yaml:6: run.concurrency: wrong type: a list, where a whole number is expected"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.src), "w.yaml")
			if err == nil {
				t.Fatal("accepted")
			}
			msg := err.Error()
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("%q lacks %q", msg, w)
				}
			}
			if strings.Contains(msg, "config.") || strings.Contains(msg, "!!") || strings.Contains(msg, "unmarshal") || strings.Count(msg, "\n") > 0 {
				t.Errorf("reads as Go, or more than one line: %q", msg)
			}
		})
	}
}
