package merge

import (
	"path/filepath"
	"testing"

	"github.com/mongoload/mongoload/internal/results"
	rt "github.com/mongoload/mongoload/internal/results/resultstest"
)

// TestMergeCountsTransactionsOnce: merged totals count each process's
// transactions once, as each process's own totals did, and the merged
// steps stay marked as steps. The oracle is the processes' own totals.
func TestMergeCountsTransactionsOnce(t *testing.T) {
	dir := t.TempDir()
	var srcs []*Source
	var want int64
	for i, part := range []string{"0/2", "1/2"} {
		res, _ := rt.Transactions(false)
		res.Load.Partition = part
		want += res.Totals.Operations
		p := filepath.Join(dir, []string{"a.json", "b.json"}[i])
		if err := results.WriteJSON(p, res); err != nil {
			t.Fatal(err)
		}
		s, err := Read(p)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, s)
	}
	m, err := Merge(srcs, tool)
	if err != nil {
		t.Fatal(err)
	}
	if m.Totals.Operations != want {
		t.Errorf("merged totals count %d operations, want the processes' %d", m.Totals.Operations, want)
	}
	for _, op := range m.Operations {
		if wantStep := op.Name == "pay/debit" || op.Name == "pay/ledger"; wantStep == op.InMix() {
			t.Errorf("%s: parent %q after the merge", op.Name, op.Parent)
		}
	}
	for _, iv := range m.Intervals {
		for _, o := range iv.Ops {
			if o.Name == "pay/debit" && o.InMix() {
				t.Errorf("interval at %gs: the step lost its parent", iv.T)
			}
		}
	}
}
