package workload

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/config"
)

// TestServerLimits is issue 25 #8: a template nested 5,000 levels deep
// passed validate and ran (and crashed the test server), though MongoDB
// refuses documents nested beyond 100 levels. Compilation (so validate and
// run alike) refuses what breaks MongoDB's documented fixed limits, and
// accepts what sits at them.
func TestServerLimits(t *testing.T) {
	nest := func(levels int) string { // a document of that many levels
		d := "{v: 1}"
		for range levels - 1 {
			d = "{a: " + d + "}"
		}
		return d
	}
	keys := func(n int) string {
		var ks []string
		for i := range n {
			ks = append(ks, fmt.Sprintf("f%d: 1", i))
		}
		return "{" + strings.Join(ks, ", ") + "}"
	}
	indexes := func(n int) string {
		var ix []string
		for i := range n {
			ix = append(ix, fmt.Sprintf("{keys: {f%d: 1}}", i))
		}
		return "[" + strings.Join(ix, ", ") + "]"
	}
	tests := []struct {
		name, template, indexes, op, want string // want "": accepted
	}{
		{"100 levels", nest(100), "[]", "", ""},
		{"101 levels", nest(101), "[]", "", "nested 101 levels deep: MongoDB refuses documents nested beyond 100"},
		{"5,000 levels", nest(5000), "[]", "", "nested 5000 levels deep"},
		{"arrays nest too", "{a: {$gen: array, of: " + nest(100) + "}}", "[]", "", "nested 102 levels deep"},
		{"a deep filter", "{v: 1}", "[]", "{name: q, type: findOne, weight: 1, filter: " + nest(101) + "}", "operations[0].filter: nested 101"},
		{"a 16 MB string", "{s: {$gen: string, length: 16777216}}", "[]", "", "can reach 16.0 MB: MongoDB refuses documents over 16 MB"},
		{"a big array of strings", "{s: {$gen: array, max: 100000, of: {$gen: string, length: 200}}}", "[]", "", "can reach 20.4 MB"},
		{"a large document that fits", "{s: {$gen: string, max: 15000000}}", "[]", "", ""},
		{"unknown sizes are not guessed", "{s: {$gen: words, max: 100}}", "[]", "", ""},
		{"32 index fields", "{v: 1}", "[{keys: " + keys(32) + "}]", "", ""},
		{"33 index fields", "{v: 1}", "[{keys: " + keys(33) + "}]", "", "33 fields: MongoDB indexes at most 32"},
		{"63 indexes", "{v: 1}", indexes(63), "", ""},
		{"64 indexes", "{v: 1}", indexes(64), "", "65 indexes with _id's: MongoDB allows 64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			op := tt.op
			if op == "" {
				op = "{name: get, type: findOne, weight: 1}"
			}
			src := "collections:\n  - {database: d, name: c, template: " + tt.template + ", indexes: " + tt.indexes + "}\noperations:\n  - " + op + "\n"
			cfg, err := config.Parse([]byte(src), "w.yaml")
			if err != nil {
				t.Fatal(err)
			}
			if es := cfg.Validate(); len(es) > 0 {
				t.Fatal(es)
			}
			_, err = Compile(cfg)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "w.yaml:")):
				t.Fatalf("error %v, want one naming w.yaml and %q", err, tt.want)
			}
		})
	}
}
