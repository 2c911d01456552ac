package config

import (
	"strings"
	"testing"
)

// TestErrorsNameTheFlagOrVariable is issue 25 #12: a bad --concurrency,
// --fault or --uri read "small.yaml: run.concurrency", a key the file did
// not have. The error now names what gave the value; a bad value in the
// file is still blamed on the file and its line.
func TestErrorsNameTheFlagOrVariable(t *testing.T) {
	const file = "name: small\ncollections:\n  - {database: d, name: c, template: {k: 1}}\noperations:\n  - {name: get, type: findOne, weight: 1}\nrun:\n  faults: [\"at 1s: stepdown\"]\n"
	setting := func(flag string) Setting {
		for _, s := range Settings {
			if s.Flag == flag {
				return s
			}
		}
		t.Fatalf("no setting %s", flag)
		return Setting{}
	}
	tests := []struct {
		name, flag, value, where string
		want                     string // the start of the error
	}{
		{"flag", "stages", "10s:2.5", "--stages", "--stages: 2.5 is not a whole number"},
		{"environment", "stages", "10s:2.5", "MONGOLOAD_STAGES", "MONGOLOAD_STAGES: 2.5 is not a whole number"},
		{"uri", "uri", "http://x", "--uri", "--uri: \"http://x\" must start with mongodb://"},
		{"a fault the flag added", "fault", "at 1h: stepdown", "--fault", "--fault: fault \"at 1h: stepdown\" comes at or after the end"},
		{"a timeout", "server-selection-timeout", "1s", "--server-selection-timeout", ""}, // valid: no error
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse([]byte(file), "small.yaml")
			if err != nil {
				t.Fatal(err)
			}
			c.Run.Duration = Duration(5e9)
			if err := setting(tt.flag).Apply(c, tt.value, tt.where); err != nil {
				t.Fatal(err)
			}
			es := c.Validate()
			if tt.want == "" {
				if len(es) > 0 {
					t.Fatalf("refused: %v", es)
				}
				return
			}
			if len(es) != 1 || !strings.HasPrefix(es[0].Error(), tt.want) || strings.Contains(es[0].Error(), "small.yaml") {
				t.Errorf("errors %v, want one starting %q", es, tt.want)
			}
		})
	}
	// The file's own bad value is still the file's.
	c, err := Parse([]byte(strings.Replace(file, "run:\n", "run:\n  concurrency: -1\n", 1)), "small.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c.Run.Duration = Duration(5e9)
	if es := c.Validate(); len(es) != 1 || !strings.HasPrefix(es[0].Error(), "small.yaml") {
		t.Errorf("a bad value in the file: %v, want it blamed on small.yaml", es)
	}
}
