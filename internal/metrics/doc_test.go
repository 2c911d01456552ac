package metrics

import (
	"os"
	"runtime"
	"strings"
	"testing"
)

// TestDefaultShardsAsDocumented: the package doc describes the default
// shard count the recorder uses: GOMAXPROCS, capped at MaxDefaultShards.
// The expected count is computed here from that sentence, for several
// GOMAXPROCS values, and compared with what NewRecorder builds.
func TestDefaultShardsAsDocumented(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "by default GOMAXPROCS, at most MaxDefaultShards") {
		t.Fatal("doc.go no longer states the default shard count this test checks")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 7, MaxDefaultShards, MaxDefaultShards + 5} {
		runtime.GOMAXPROCS(procs)
		want := procs
		if want > MaxDefaultShards {
			want = MaxDefaultShards
		}
		if got := NewRecorder([]string{"op"}, Options{}).Shards(); got != want {
			t.Errorf("GOMAXPROCS %d: %d shards, the doc says %d", procs, got, want)
		}
	}
}
