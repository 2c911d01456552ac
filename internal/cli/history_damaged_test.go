package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/results"
)

// TestHistorySkipsADamagedEntry (issue 46): an entry cut short (a run
// killed while an older mongoload wrote it in place) or empty is left out
// with one warning line naming it, and the gate still works on the rest:
// it had exited 3 until someone deleted the file. Entries are written
// whole: no temporary file is left behind, none is read as an entry.
func TestHistorySkipsADamagedEntry(t *testing.T) {
	ctx := context.Background()
	store := nightly(t, 20, 12)
	kept, _ := filepath.Glob(filepath.Join(store, "*"))
	for _, p := range kept {
		if b := filepath.Base(p); b != ".mongoload-history" && !strings.HasSuffix(b, ".json.gz") {
			t.Errorf("the store holds %s beside its entries (a temporary file left behind?)", b)
		}
	}
	if st, err := os.Stat(kept[len(kept)-1]); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("an entry's mode: %v, %v; want 0644", st.Mode(), err)
	}
	whole, _ := os.ReadFile(kept[len(kept)-1])
	cut := filepath.Join(store, "20261130T020000.000000000Z-nightly-build-21.json.gz")
	empty := filepath.Join(store, "20261201T020000.000000000Z-nightly-build-22.json.gz")
	os.WriteFile(cut, whole[:len(whole)/2], 0o644)
	os.WriteFile(empty, nil, 0o644)
	os.WriteFile(filepath.Join(store, ".writing-123.tmp"), whole[:10], 0o600) // a kill between write and link
	code, out, errs := runCLI(t, ctx, nil, "history", store, "--fail-on-regression", "--format", "json")
	if code != ExitRegression || !strings.Contains(errs, "nightly throughput") {
		t.Errorf("--fail-on-regression with two damaged entries: exit %d, %s; want %d", code, errs, ExitRegression)
	}
	for _, p := range []string{cut, empty} {
		if n := strings.Count(errs, "warning: history entry skipped, damaged: "+p); n != 1 {
			t.Errorf("%d warning lines name %s: %s", n, filepath.Base(p), errs)
		}
	}
	var h results.History
	if err := json.Unmarshal([]byte(out), &h); err != nil || len(h.Skipped) != 2 || len(h.Workloads) != 1 || len(h.Workloads[0].Runs) != 20 {
		t.Errorf("the history: %v; skipped %v, want 20 runs and 2 skipped", err, h.Skipped)
	}
}
