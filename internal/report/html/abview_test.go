package html

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
)

// TestABPage: each operation gets a chart of its two latency distributions
// side by side, read from each side's histogram, and the page renders
// self-contained.
func TestABPage(t *testing.T) {
	hist := func(us int64) string {
		h := metrics.NewHistogram()
		for i := int64(1); i <= 100; i++ {
			_ = h.RecordValue(us * i / 50)
		}
		s, err := metrics.EncodeHistogram(h)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	ab := &results.AB{Workload: results.Workload{Name: "w"}, Verdict: results.ABRegressed, Summary: "regressed: ...",
		Operations: []results.ABOperation{
			{Name: "by_org", Flag: results.FlagRegression, ResultA: results.Operation{Histogram: hist(1000)}, ResultB: results.Operation{Histogram: hist(8000)}},
			{Name: "by_id", Flag: results.FlagNone, ResultA: results.Operation{Histogram: hist(200)}, ResultB: results.Operation{Histogram: hist(200)}},
		}}
	v := abView(ab)
	if len(v.Charts) != 2 {
		t.Fatalf("%d charts, want one per operation", len(v.Charts))
	}
	org := v.Charts[0]
	if len(org.Series) != 2 || org.Series[0].Label != "A (baseline)" || org.Series[1].Label != "B (candidate)" {
		t.Fatalf("by_org's series: %+v", org.Series)
	}
	mid := len(abPercentiles) / 2 // p75
	a, b := org.Series[0].Values[mid], org.Series[1].Values[mid]
	if a == nil || b == nil || *b < 7**a || *b > 9**a {
		t.Errorf("by_org at p%g: A %v, B %v ms: want B about 8x A, from the histograms", abPercentiles[mid], a, b)
	}
	var page bytes.Buffer
	if err := WriteAB(&page, ab); err != nil {
		t.Fatal(err)
	}
	if s := page.String(); !strings.Contains(s, "mongoload ab: w") || !strings.Contains(s, "ab-0") || strings.Contains(s, "<script src=") {
		t.Errorf("the page lacks its title or chart, or is not self-contained")
	}
}
