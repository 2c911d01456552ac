package html

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/results/resultstest"
)

// TestOperatorSections: a result with the operator's view shows the
// server's context, the slow shapes with a collection scan marked, and the
// collections before and after.
func TestOperatorSections(t *testing.T) {
	res := resultstest.Sweep("concurrency", "primary", resultstest.Seed000()).Steps[0].Result
	cores, count, after := int64(4), int64(14591), int64(15020)
	docs := 7295.5
	res.Context = &results.ServerContext{Version: "7.0.12", FCV: "7.0", Host: &results.HostFacts{Cores: &cores}, Absent: []string{"networkCompressors"}}
	res.Collections = []results.CollectionStats{{Namespace: "airline.flights", Before: &results.CollStats{Count: &count}, After: &results.CollStats{Count: &after}}}
	res.Slow = &results.Slow{ThresholdMs: 200, Operations: 41, Shapes: []results.SlowShape{{Namespace: "airline.flights", Type: "find",
		Shape: "{gate: <string>}", Count: 41, Explain: &results.Explain{Plan: "LIMIT > COLLSCAN", CollScan: true, DocsExamined: 14591, Returned: 2, DocsPerReturned: &docs}}}}
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
