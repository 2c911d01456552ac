package merge

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
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
