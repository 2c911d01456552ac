package cli

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var yamlBlock = regexp.MustCompile("(?s)```yaml\n(.*?)```")

// TestDocumentedWorkloadsValidate keeps the docs honest: every complete
// workload example (one with collections: and operations:) in docs/ and the
// README must validate.
func TestDocumentedWorkloadsValidate(t *testing.T) {
	files, _ := filepath.Glob("../../docs/*.md")
	files = append(files, "../../README.md")
	checked := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range yamlBlock.FindAllSubmatch(data, -1) {
			block := string(m[1])
			if !strings.Contains(block, "collections:") || !strings.Contains(block, "operations:") {
				continue
			}
			p := writeFile(t, "doc.yaml", block)
			if code, _, stderr := runCLI(t, context.Background(), nil, "validate", p); code != 0 {
				t.Errorf("%s, yaml block %d does not validate: %s", f, i+1, stderr)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no workload example found in the docs")
	}
}
