package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/results"
)

// TestWriteABConsole: the table has a row per operation with both sides'
// figures and plans, the sentences follow, the verdict ends it.
func TestWriteABConsole(t *testing.T) {
	dpr := 50.0
	ab := &results.AB{Workload: results.Workload{Name: "w"}, Verdict: results.ABRegressed,
		Summary:   "regressed: 1 of 1 shapes regressed beyond 10% (by_org); verified results agree (10 operations)",
		Sentences: []string{"by_org: p99 1.9 ms → 41 ms (21x), plan IXSCAN { org: 1 } → COLLSCAN"},
		A:         results.ABSide{Label: "A (baseline)", URI: "mongodb://a"}, B: results.ABSide{Label: "B (candidate)", URI: "mongodb://b", Failed: "answered no operation in round 2"},
		Method: results.ABMethod{Rounds: 2, Order: []string{"A", "B", "B", "A"}, Threshold: 0.1, Alpha: 0.01, Verified: 10},
		Operations: []results.ABOperation{{Name: "by_org", Flag: results.FlagRegression, PlanA: "IXSCAN { org: 1 }", PlanB: "COLLSCAN", PlanChanged: true,
			RatioP99: 21, Shift: 7.5, Verified: 10, CountOnly: true, ExplainB: &results.Explain{DocsPerReturned: &dpr},
			ResultA: results.Operation{Latency: results.Latency{P50: 1, P95: 1.5, P99: 1.9}}, ResultB: results.Operation{Latency: results.Latency{P50: 7.5, P95: 30, P99: 41}}}},
	}
	var b bytes.Buffer
	if err := WriteABConsole(&b, ab); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"A (baseline)   mongodb://a", "answered no operation in round 2", "order [A B B A]",
		"by_org", "1.900", "41.000", "21.00x", "-/50.0", "0 (count only)", "regression", "IXSCAN { org: 1 } → COLLSCAN",
		"by_org: p99 1.9 ms → 41 ms", "\nverdict regressed: 1 of 1 shapes"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
}
