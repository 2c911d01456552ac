package capture

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/capture/source"
)

// TestOddBytesHideNoValue (promises6 case 5): a real mongod log (percona
// pmm's, 5.0) whose people are given full names and whose city a street,
// each followed by a byte the detectors of identifying strings cannot
// read: U+FFFD (what a log writer puts for a byte that was not UTF-8), a
// raw Latin-1 é, a zero-width space, a control character, and a name
// spelt with a combining accent. Without --keep-values none of them is in
// the file, in clear or as !!binary, in a filter, an update, a
// findAndModify or a shape comment, as with the same log without the
// odd byte; with --keep-values they are written (the test can fail).
func TestOddBytesHideNoValue(t *testing.T) {
	dir := realFormats(t, "logs")
	real, err := os.ReadFile(filepath.Join(dir, "pmm_mongolog_5.0.31_many_slow_queries.excerpt.log"))
	if err != nil {
		t.Fatal(err)
	}
	secrets := []string{"Quixote", "Featherstonehaugh", "Terrace"}
	for _, c := range []struct{ name, tail, accent string }{
		{"clean", "", "e"},
		{"U+FFFD", "\xef\xbf\xbd", "e"},
		{"Latin-1", "\xe9", "e"},
		{"zero-width space", `\u200b`, "e"},
		{"control character", `\u0007`, "e"},
		{"combining accent", "", `e\u0308`}, // Zoe\u0308: Zoë decomposed
	} {
		t.Run(c.name, func(t *testing.T) {
			log := strings.NewReplacer(
				`"Alice"`, `"Zo`+c.accent+` Quixote`+c.tail+`"`,
				`"Charlie"`, `"Charli`+c.accent+` Featherstonehaugh`+c.tail+`"`,
				`"Paris"`, `"742 Evergre`+c.accent+`n Terrace`+c.tail+`"`,
			).Replace(string(real))
			path := filepath.Join(t.TempDir(), "mongod.log")
			// Three times over: each name is then seen often enough to be a
			// category by its count alone (privacy.go's rule 2).
			if err := os.WriteFile(path, []byte(strings.Repeat(log, 3)), 0o600); err != nil {
				t.Fatal(err)
			}
			text := captureLog(t, path, Options{})
			for _, s := range secrets {
				if strings.Contains(text, s) {
					t.Errorf("%q left the source:\n%s", s, text)
				}
			}
			if strings.Contains(text, "!!binary") {
				t.Errorf("a value left the source as !!binary:\n%s", text)
			}
			// (A string that is not UTF-8 is written as YAML's !!binary of its bytes.)
			if kept := captureLog(t, path, Options{KeepValues: true}); !strings.Contains(kept, "Quixote") && !strings.Contains(kept, "!!binary") {
				t.Errorf("--keep-values did not write the name:\n%s", kept)
			}
		})
	}
}

// captureLog is the workload file capture writes from the log at path.
func captureLog(t *testing.T, path string, o Options) string {
	t.Helper()
	o.Now = func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }
	res := &Result{Opts: o, Shapes: NewShapes(1)}
	src, err := source.ReadLogs([]string{path}, nil, func(op source.Op) bool { res.Shapes.Add(op); return true })
	if err != nil {
		t.Fatal(err)
	}
	res.Sources = []*source.Source{src}
	return write(t, res.Workload("test"))
}
