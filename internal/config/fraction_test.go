package config

import (
	"strings"
	"testing"
)

// TestFileFractionRefused: a fraction where a whole number belongs is
// refused in a file as on the command line (promises5 yaml-fraction: the
// decoder cut concurrency: 2.7 to 2 and a watcher's streams: 1.5 to 1 in
// silence), naming the key, its line and what to give; a whole number
// written as a float (2.0, 1e3) is that number.
func TestFileFractionRefused(t *testing.T) {
	head := "name: f\ncollections: [{database: d, name: c, template: {_id: {$gen: key}}}]\noperations: [{name: a, type: find, weight: 1, filter: {_id: 1}}]\n"
	tests := []struct {
		yaml, want string // want: "" when it reads
	}{
		{"run: {concurrency: 2.7}", "f.yaml:4: run.concurrency: 2.7 is not a whole number: give a number of workers from 1 to 1,000,000"},
		{"watchers: [{name: w, collection: d.c, streams: 1.5}]", "f.yaml:4: watchers[0].streams: 1.5 is not a whole number"},
		{"run: {sessions: 0.5}", "run.sessions: 0.5 is not a whole number"},
		{"run: {explain: .inf}", "run.explain: .inf is not a whole number"},
		{"connection: {maxPoolSize: 10.5}", "connection.maxPoolSize: 10.5 is not a whole number"},
		{"run: {seedBatchSize: 1e3, concurrency: 2.0}", ""},
	}
	for _, tt := range tests {
		cfg, err := Parse([]byte(head+tt.yaml+"\n"), "f.yaml")
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.yaml, err)
		case tt.want == "" && (cfg.Run.SeedBatchSize != 1000 || cfg.Run.Concurrency != 2):
			t.Errorf("%s read as %d, %d", tt.yaml, cfg.Run.SeedBatchSize, cfg.Run.Concurrency)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: got %v, want %q", tt.yaml, err, tt.want)
		case tt.want != "":
			if k, _ := KindOf(err); k != Invalid {
				t.Errorf("%s: kind %v, want Invalid (exit 12)", tt.yaml, k)
			}
		}
	}
}

// TestWriteConcernFraction: a w that reads as a number but not a whole
// one (w: 1.5) is refused, in the file, the flag and --load-write-concern
// alike (the driver sent it as a tag's name, refused by the server at the
// first write); whole numbers and tags pass.
func TestWriteConcernFraction(t *testing.T) {
	for _, w := range []string{"1.5", "1e3", "NaN", "-Inf"} {
		if err := CheckW(w); err == nil || !strings.Contains(err.Error(), "not a whole number of members") {
			t.Errorf("w %s: %v", w, err)
		}
	}
	for _, w := range []string{"0", "2", "majority", "dc1"} {
		if err := CheckW(w); err != nil {
			t.Errorf("w %s refused: %v", w, err)
		}
	}
	cfg, err := Parse([]byte("name: f\ncollections: [{database: d, name: c, template: {_id: {$gen: key}}}]\noperations: [{name: a, type: insertOne, weight: 1, writeConcern: {w: 2.5}}]\n"), "f.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if es := cfg.Validate(); len(es) != 1 || !strings.Contains(es.Error(), "operations[0].writeConcern.w: \"2.5\" is not a whole number") {
		t.Errorf("validate: %v", es)
	}
}
