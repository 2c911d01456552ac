package workload

import (
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/config"
)

// TestPipelineOutputs: where $out and $merge write, in every form the
// server takes; a target drawn by a generator is refused (the ownership
// rule must know it before the run).
func TestPipelineOutputs(t *testing.T) {
	tests := []struct {
		stage, want string // want: the namespace, or the error
	}{
		{`{$out: t}`, "d.t"},
		{`{$out: {db: e, coll: t}}`, "e.t"},
		{`{$out: {db: e, coll: t, timeseries: {timeField: ts}}}`, "e.t"},
		{`{$merge: t}`, "d.t"},
		{`{$merge: {into: t, whenMatched: replace}}`, "d.t"},
		{`{$merge: {into: {db: e, coll: t}}}`, "e.t"},
		{`{$out: {$gen: string}}`, "must be written out"},
		{`{$merge: {on: _id}}`, "$merge needs into"},
	}
	for _, tt := range tests {
		t.Run(tt.stage, func(t *testing.T) {
			src := "collections:\n  - {database: d, name: c, template: {v: 1}}\noperations:\n  - {name: copy, type: aggregate, weight: 1, pipeline: [" + tt.stage + "]}\n"
			cfg, err := config.Parse([]byte(src), "w.yaml")
			if err != nil {
				t.Fatal(err)
			}
			if es := cfg.Validate(); len(es) > 0 {
				t.Fatal(es)
			}
			p, err := Compile(cfg)
			switch {
			case err != nil && !strings.Contains(err.Error(), tt.want):
				t.Fatalf("error %v, want %q", err, tt.want)
			case err == nil && (len(p.Outputs) != 1 || p.Outputs[0].Collection.Namespace() != tt.want || !p.Outputs[0].Collection.Writes):
				t.Fatalf("outputs %+v, want %s", p.Outputs, tt.want)
			}
		})
	}
}
