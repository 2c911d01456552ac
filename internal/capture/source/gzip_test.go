package source

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestGzipEndsSaidForWhatTheyAre (promises6 case 7): a real log (hatchet's
// 6.0 sample), gzipped, ending badly in each way a copy can: stray bytes
// after the gzip data keep every entry (it exited 3 and wrote nothing)
// and the lost: line names them and their offset; a byte changed is
// corrupt, not cut short, and the line says how much was kept and how
// much was unreadable (it said "cut short" of a stream whose checksum
// failed); a cut keeps the lines before it; two members one after the
// other are one log.
func TestGzipEndsSaidForWhatTheyAre(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(realFormats(t, "logs"), "hatchet_sample-mongod_6.0.11.excerpt.log"))
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(data)
	zw.Close()
	z := gz.Bytes()
	dir := t.TempDir()
	read := func(name string, content []byte) *Source {
		t.Helper()
		path := filepath.Join(dir, name)
		os.WriteFile(path, content, 0o600)
		src, err := ReadLogs([]string{path}, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return src
	}
	whole := read("whole.log.gz", z)
	if len(whole.Tally.Lost) != 0 || whole.Tally.Read == 0 {
		t.Fatalf("the whole .gz: %d entries, lost %q", whole.Tally.Read, whole.Tally.Lost)
	}
	lost := func(src *Source) string { return strings.Join(src.Tally.Lost, "; ") }

	stray := read("stray.log.gz", append(bytes.Clone(z), "trailing bytes"...))
	if stray.Tally.Read != whole.Tally.Read || len(stray.Tally.Lost) != 1 ||
		!strings.Contains(lost(stray), "14 stray bytes after the gzip data, from byte "+strconv.Itoa(len(z))) {
		t.Errorf("stray bytes: %d entries of %d, lost %q", stray.Tally.Read, whole.Tally.Read, lost(stray))
	}

	damaged := bytes.Clone(z)
	damaged[len(z)/3] ^= 0x55
	bad := read("damaged.log.gz", damaged)
	if !strings.Contains(lost(bad), "corrupt, not cut short") || !strings.Contains(lost(bad), "unreadable") || strings.Contains(lost(bad), "cut short at") {
		t.Errorf("a byte changed: lost %q; want it said corrupt, with what was kept", lost(bad))
	}

	cut := read("cut.log.gz", z[:len(z)*6/10])
	if cut.Tally.Read == 0 || cut.Tally.Read >= whole.Tally.Read || !strings.Contains(lost(cut), "cut short at byte") {
		t.Errorf("cut: %d entries of %d, lost %q", cut.Tally.Read, whole.Tally.Read, lost(cut))
	}

	two := read("two.log.gz", append(bytes.Clone(z), z...))
	if two.Tally.Read != 2*whole.Tally.Read || len(two.Tally.Lost) != 0 {
		t.Errorf("two members: %d entries, want %d; lost %q", two.Tally.Read, 2*whole.Tally.Read, lost(two))
	}
}
