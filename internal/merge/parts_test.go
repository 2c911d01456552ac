package merge

import (
	"path/filepath"
	"strings"
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

// TestMergeNamesIncompletePartitions: a merge of a partitioned run whose
// process was stopped (a deleted pod: SIGTERM, an interrupted results file)
// or never wrote its file names both partitions, so that three quarters of
// the load are not read as the whole.
func TestMergeNamesIncompletePartitions(t *testing.T) {
	dir := t.TempDir()
	var srcs []*Source
	for _, part := range []string{"0/4", "1/4", "2/4"} {
		res, _ := rt.Transactions(false)
		res.Load.Partition = part
		if part == "2/4" {
			res.Outcome, res.Reason = results.Interrupted, "interrupted by SIGTERM"
		}
		p := filepath.Join(dir, "part-"+part[:1]+".json")
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
	notes := strings.Join(m.Notes, "\n")
	for _, want := range []string{"partition 3/4 of the run is not among the inputs", "partition 2/4 (" + srcs[2].File + ") ended early (interrupted by SIGTERM after"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	if strings.Contains(notes, "partition 0/4") || strings.Contains(notes, "partition 1/4") {
		t.Errorf("notes name a partition that ran to its end:\n%s", notes)
	}
}
