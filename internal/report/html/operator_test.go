package html

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/report"
	"github.com/mongoload/mongoload/internal/report/reporttest"
)

// TestOperatorSections: a result with the operator's view shows the
// server's context, the slow shapes with a collection scan marked, and the
// collections before and after.
func TestOperatorSections(t *testing.T) {
	res := reporttest.Sweep("concurrency", "primary", reporttest.Seed000()).Steps[0].Result
	cores, count, after := int64(4), int64(14591), int64(15020)
	docs := 7295.5
	res.Context = &report.ServerContext{Version: "7.0.12", FCV: "7.0", Host: &report.HostFacts{Cores: &cores}, Absent: []string{"networkCompressors"}}
	res.Collections = []report.CollectionStats{{Namespace: "airline.flights", Before: &report.CollStats{Count: &count}, After: &report.CollStats{Count: &after}}}
	res.Slow = &report.Slow{ThresholdMs: 200, Operations: 41, Shapes: []report.SlowShape{{Namespace: "airline.flights", Type: "find",
		Shape: "{gate: <string>}", Count: 41, Explain: &report.Explain{Plan: "LIMIT > COLLSCAN", CollScan: true, DocsExamined: 14591, Returned: 2, DocsPerReturned: &docs}}}}
	var b bytes.Buffer
	if err := Write(&b, Page{Result: res}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{"7.0.12 (FCV 7.0)", "networkCompressors", "Slow operations", "{gate: &lt;string&gt;}", "LIMIT &gt; COLLSCAN (collection scan)", scanColor, "7,295.5", "14,591", "15,020"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}
