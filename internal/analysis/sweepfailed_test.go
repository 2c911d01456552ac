package analysis

import (
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/results/resultstest"
)

// TestAnalyseSweepEveryOperationFailed: a sweep none of whose operations
// succeeded gets no sweet spot, saturation or maximum (promises6: it was
// told of "a sweet spot at 0 ops/s" and given no fit and no word why),
// and its summary and limit say every operation failed, with the errors.
func TestAnalyseSweepEveryOperationFailed(t *testing.T) {
	sw := resultstest.Sweep("concurrency", "", resultstest.Seed000()[:4])
	for _, st := range sw.Steps {
		tot := &st.Result.Totals
		tot.Errors, tot.Operations, tot.Throughput = tot.Operations, 0, 0
		tot.ErrorsByClass = map[string]int64{"Unauthorized(13)": tot.Errors - 1, "network": 1}
	}
	a, err := AnalyseSweep(sw, DefaultSweepOptions())
	if err != nil {
		t.Fatal(err)
	}
	if a.SweetSpot != nil || a.Saturation != nil || a.Plateau != nil || a.Best != nil {
		t.Errorf("sweet spot %v, saturation %v, plateau %v, best %v: want none", a.SweetSpot, a.Saturation, a.Plateau, a.Best)
	}
	for _, f := range a.Steps {
		if f.Verdict != "" {
			t.Errorf("%g workers judged %q", f.Level, f.Verdict)
		}
	}
	text := strings.Join(a.Summary, " ")
	for _, want := range []string{"No sweet spot", "no scalability law fitted", "every operation failed", "Unauthorized(13)", "network 4"} {
		if !strings.Contains(text, want) {
			t.Errorf("summary %q: no %q", text, want)
		}
	}
	if strings.Contains(text, "Sweet spot:") || a.Limit.Kind != "errors" || !strings.Contains(a.Limit.Text, "every operation failed") {
		t.Errorf("summary %q, limit %+v", text, a.Limit)
	}
	// one step that did something: judged as before
	sw.Steps[0].Result.Totals.Operations = 1
	if a, _ := AnalyseSweep(sw, DefaultSweepOptions()); a.Limit.Kind == "errors" {
		t.Errorf("a sweep with a success was called all-failed: %q", a.Summary)
	}
}
