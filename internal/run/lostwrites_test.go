package run

import (
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/workload"
	"github.com/mongoload/mongoload/internal/workload/workloadtest"
)

func lostPlan(t *testing.T, ops string) *workload.Plan {
	t.Helper()
	_, p := workloadtest.Compile(t, []byte(`
collections:
  - {database: d, name: c, template: {k: {$gen: key}}}
operations:
`+ops), "t.yaml")
	return p
}

// TestLostWrites: documents missing against the lower bound the
// acknowledged writes set (before + inserts - deletes) are flagged, by the
// exact count when there is one, and blamed on the restart when the
// server restarted; a deleteMany makes the bound unknowable.
func TestLostWrites(t *testing.T) {
	i := func(v int64) *int64 { return &v }
	insDel := "  - {name: ins, type: insertOne, collection: c, weight: 1}\n  - {name: del, type: deleteOne, collection: c, weight: 1, filter: {k: 1}}\n"
	for _, tc := range []struct {
		name        string
		ops         string
		counts      map[string]int64
		after       int64
		exact       map[string]int64
		restarts    int
		want, blame string
	}{
		{"none lost", insDel, map[string]int64{"ins": 50, "del": 10}, 140, nil, 1, "", ""},
		{"deletes may remove less", insDel, map[string]int64{"ins": 50, "del": 10}, 150, nil, 1, "", ""},
		{"lost after a restart", insDel, map[string]int64{"ins": 50, "del": 10}, 137, nil, 1, "at least 3 fewer", "restarted"},
		{"exact count wins", insDel, map[string]int64{"ins": 50, "del": 10}, 140, map[string]int64{"d.c": 135}, 1, "at least 5 fewer", "restarted"},
		{"no restart", insDel, map[string]int64{"ins": 50}, 120, nil, 0, "at least 30 fewer", "another client"},
		{"deleteMany: no bound", insDel + "  - {name: purge, type: deleteMany, collection: c, weight: 1, filter: {k: 1}}\n", map[string]int64{"ins": 50}, 10, nil, 1, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := &results.Result{Server: &results.Server{Restarts: tc.restarts},
				Collections: []results.CollectionStats{{Namespace: "d.c", Before: &results.CollStats{Count: i(100)}, After: &results.CollStats{Count: i(tc.after)}}}}
			for name, n := range tc.counts {
				res.Operations = append(res.Operations, results.Operation{Name: name, Count: n})
			}
			notes := lostWrites(lostPlan(t, tc.ops), res, tc.exact)
			switch {
			case tc.want == "" && len(notes) > 0:
				t.Errorf("flagged: %v", notes)
			case tc.want != "" && (len(notes) != 1 || !strings.Contains(notes[0], tc.want) || !strings.Contains(notes[0], tc.blame)):
				t.Errorf("notes %v; want one with %q and %q", notes, tc.want, tc.blame)
			}
		})
	}
}
