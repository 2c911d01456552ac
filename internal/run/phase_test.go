package run

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPhaseOrder: the phases of a run, in the order the architecture
// document gives them, and their values in that order too (pipeline.enter
// relies on it to refuse a phase entered out of turn).
func TestPhaseOrder(t *testing.T) {
	want := []string{"connect", "setup", "seed", "context", "warm-up", "measure", "collect", "explain", "write"}
	var got []string
	for i, p := range Phases {
		got = append(got, p.String())
		if i > 0 && p <= Phases[i-1] {
			t.Errorf("%s (%d) does not come after %s (%d)", p, p, Phases[i-1], Phases[i-1])
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("phases %v, want %v", got, want)
	}
}

// TestPhaseOrderIsTheDocs: docs/architecture.md names the phases in the
// order Phases has them.
func TestPhaseOrderIsTheDocs(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	const intro = "lists a run's phases in order:"
	_, rest, ok := strings.Cut(strings.Join(strings.Fields(string(doc)), " "), intro)
	if !ok {
		t.Fatalf("docs/architecture.md no longer says %q", intro)
	}
	list, _, _ := strings.Cut(rest, ".")
	var named []string
	for _, n := range strings.Split(list, ",") {
		named = append(named, strings.TrimSpace(n))
	}
	var want []string
	for _, p := range Phases {
		want = append(want, p.String())
	}
	if !slices.Equal(named, want) {
		t.Errorf("the document lists %v, the pipeline runs %v", named, want)
	}
}
