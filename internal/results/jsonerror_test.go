package results

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWrongShapeInTheReadersWords is issue 25 #14 for results files: a
// file of the wrong shape gave Go's "cannot unmarshal string into Go
// struct field Totals.totals.operations of type int64". Now one line: the
// file, the line, the field, what it holds and what belongs there.
func TestWrongShapeInTheReadersWords(t *testing.T) {
	tests := []struct {
		name, content string
		want          []string
	}{
		{"a string for a count", `{"schema": "` + Schema + `",` + "\n" + `"totals": {"operations": "many"}}`, []string{"line 2", "totals.operations holds a string, where a whole number belongs", "fix that field"}},
		{"an object for a list", `{"schema": "` + Schema + `", "operations": {"get": 1}}`, []string{"operations holds an object", "where a list"}},
		{"cut short", `{"schema": "` + Schema + `",`, []string{"line 1", "malformed JSON"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "r.json")
			if err := os.WriteFile(p, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, read := range []func(string) error{
				func(p string) error { _, err := ReadJSON(p); return err },
				func(p string) error { _, err := Read(p); return err },
			} {
				err := read(p)
				if err == nil {
					t.Fatal("accepted")
				}
				msg := err.Error()
				for _, w := range tt.want {
					if !strings.Contains(msg, w) {
						t.Errorf("%q lacks %q", msg, w)
					}
				}
				if strings.Contains(msg, "Go struct") || strings.Contains(msg, "unmarshal") || strings.Contains(msg, "\n") {
					t.Errorf("reads as Go: %q", msg)
				}
			}
		})
	}
}
