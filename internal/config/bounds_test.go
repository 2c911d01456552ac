package config

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// laughs is a "billion laughs" workload: each level's list holds ten
// aliases of the one before, so levels levels stand for 10^levels values.
func laughs(levels int) string {
	var b strings.Builder
	b.WriteString("collections:\n  - database: d\n    name: c\n    template:\n      a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < levels; i++ {
		fmt.Fprintf(&b, "      a%d: &a%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*a%d, ", i-1), 10), ", "))
	}
	b.WriteString("operations:\n  - {name: g, type: findOne, weight: 1, filter: {a: 1}}\n")
	return b.String()
}

// TestAliasBomb: a workload whose aliases expand to a billion values is
// refused with one line naming the file, the line and the fix, after a
// walk whose memory the test bounds (the old code expanded it: over 1 GB
// in 18 s, and without bound). The oracle for the count is arithmetic:
// levels n stand for 10^n leaves plus their lists.
func TestAliasBomb(t *testing.T) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := Parse([]byte(laughs(9)), "bomb.yaml")
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "bomb.yaml:6:") || !strings.Contains(err.Error(), "aliases") {
		t.Fatalf("a billion laughs: %v", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("refusing it allocated %d MB; the check must not expand the aliases", alloc>>20)
	}
	// Aliases that only repeat stay legal: 10^4 leaves + lists is far below the limit.
	if _, err := Parse([]byte(laughs(4)), "ok.yaml"); err != nil && strings.Contains(err.Error(), "aliases") {
		t.Errorf("a modest use of aliases refused: %v", err)
	}
	// The limit is exact: levels 6 are 10^6 leaves + 111,111 lists (+ the rest), just over.
	if _, err := Parse([]byte(laughs(6)), "six.yaml"); err == nil || !strings.Contains(err.Error(), "aliases") {
		t.Errorf("10^6 leaves accepted: %v", err)
	}
}

// TestWorkloadTooBig: a file over MaxWorkloadBytes is refused by size,
// before it is parsed.
func TestWorkloadTooBig(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big.yaml")
	big := "# " + strings.Repeat("x", MaxWorkloadBytes) + "\n"
	if err := os.WriteFile(p, []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(p)
	if err == nil || !strings.Contains(err.Error(), "a workload is at most 8 MB") {
		t.Fatalf("%v", err)
	}
}
