package merge

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// misnamed copies sp's process 0 interval log as p0-log.json, its process
// 1 results file gzipped as p1-results.gz and its process 2 results file
// as p2.hlog: each must be read by what it holds.
func misnamed(t *testing.T, sp *split) []string {
	t.Helper()
	read := func(p string) []byte {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(read(sp.json[1]))
	zw.Close()
	out := map[string][]byte{"p0-log.json": read(sp.hlog[0]), "p1-results.gz": gz.Bytes(), "p2.hlog": read(sp.json[2])}
	var paths []string
	for _, name := range []string{"p0-log.json", "p1-results.gz", "p2.hlog"} {
		p := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(p, out[name], 0o600); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// TestMergeRefusesAStream: an input piped (<(cat p0.json)) is refused in
// words: its first bytes tell its kind and it is then read from its start,
// which a stream cannot give twice (the second reading lost its start and
// was refused as malformed JSON).
func TestMergeRefusesAStream(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	go func() { w.Write([]byte(`{"schema": "mongoload.results/v1"}`)); w.Close() }()
	if _, err := Read(fmt.Sprintf("/dev/fd/%d", r.Fd())); err == nil || !strings.Contains(err.Error(), "write it to a file") {
		t.Errorf("a piped input: %v; want it refused in words", err)
	}
}
