package source

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// piped is a stream of data, as --log /dev/stdin or <(zcat ...) give one:
// the name of a pipe's reading end (/dev/fd/N), which opening again
// gives what follows, not the start.
func piped(t *testing.T, data []byte) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		w.Write(data)
		w.Close()
	}()
	t.Cleanup(func() { r.Close() })
	return fmt.Sprintf("/dev/fd/%d", r.Fd())
}

// TestLogStreamsAreReadOnce (promises6 case 6): a real log piped to
// capture (alone, and gzipped among files, when the logs are sorted by
// their first time) gives every entry the file gives; the scan for the
// first time read the stream's start and the stream was opened again,
// losing it (25 of 36 entries).
func TestLogStreamsAreReadOnce(t *testing.T) {
	dir := realFormats(t, "logs")
	rs1 := filepath.Join(dir, "hatchet_replica_rs1_6.0.14.excerpt.log")
	rs2 := filepath.Join(dir, "hatchet_replica_rs2_6.0.14.excerpt.log")
	read := func(paths ...string) int {
		t.Helper()
		src, err := ReadLogs(paths, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		return src.Tally.Read
	}
	want1, want2 := read(rs1), read(rs2)
	data1, _ := os.ReadFile(rs1)
	data2, _ := os.ReadFile(rs2)
	if got := read(piped(t, data1)); got != want1 {
		t.Errorf("one log piped: %d entries read, the file gives %d", got, want1)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(data2)
	zw.Close()
	if got := read(rs1, piped(t, gz.Bytes())); got != want1+want2 {
		t.Errorf("a gzipped log piped beside a file: %d entries read, the files give %d", got, want1+want2)
	}
}

// TestExportStreamIsReadOnce: real profiler documents written over
// several lines (percona-toolkit's, by the legacy shell), piped to
// --export: the first reading (one document a line) finds none and the
// second reads them as documents, from the stream's start (it was opened
// again, at its end, and the capture failed).
func TestExportStreamIsReadOnce(t *testing.T) {
	dir := realFormats(t, "profiler/percona-toolkit")
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	var all []byte
	for _, f := range files {
		b, _ := os.ReadFile(f)
		all = append(append(all, b...), '\n')
	}
	path := filepath.Join(t.TempDir(), "profile.json")
	os.WriteFile(path, all, 0o600)
	want, err := ReadExport(path, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadExport(piped(t, all), nil, nil)
	if err != nil {
		t.Fatalf("the export piped: %v", err)
	}
	if got.Tally.Read != want.Tally.Read || want.Tally.Read != len(files) {
		t.Errorf("the export piped: %d documents read, the file gives %d (%d files)", got.Tally.Read, want.Tally.Read, len(files))
	}
}
