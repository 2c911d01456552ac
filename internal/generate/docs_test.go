package generate

import (
	"os"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// TestDocsExamples keeps docs/generators.md honest: every YAML example in
// it compiles, in both key modes, and generates valid BSON; and every
// generator is documented.
func TestDocsExamples(t *testing.T) {
	md, err := os.ReadFile("../../docs/generators.md")
	if err != nil {
		t.Skipf("docs not found: %v", err)
	}
	text := string(md)
	blocks := strings.Split(text, "```yaml\n")[1:]
	if len(blocks) == 0 {
		t.Fatal("no YAML examples found")
	}
	for i, b := range blocks {
		src := b[:strings.Index(b, "```")]
		for _, mode := range []Mode{Query, Insert} {
			d, err := CompileDocument(parse(t, src), testEnv(mode))
			if err != nil {
				t.Fatalf("example %d (mode %d): %v\n%s", i+1, mode, err, src)
			}
			if err := bson.Raw(d.Append(nil, NewState(1, 1))).Validate(); err != nil {
				t.Fatalf("example %d: %v", i+1, err)
			}
		}
	}
	for _, name := range Names() {
		if !strings.Contains(text, "| `"+name+"`") {
			t.Errorf("generator %q has no row in docs/generators.md", name)
		}
	}
}
