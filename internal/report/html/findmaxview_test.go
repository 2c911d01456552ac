package html

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/results/resultstest"
)

// TestFindMaxPageSaysHowSure: the HTML report of an unreliable search
// says so (the fact and the sentence) and shows the other work per probe.
func TestFindMaxPageSaysHowSure(t *testing.T) {
	res := resultstest.Result(results.LoadModel{Type: results.Open, Rate: 100}, resultstest.Step{Level: 100, Throughput: 100, LatencyMs: 2}, resultstest.T0, "")
	res.Interference = &results.Interference{Cores: 2, Other: 0.84, OtherShare: 0.42}
	no := false
	f := &results.FindMax{SLO: []string{"p99<=5ms"}, AchievedShare: 0.95, Probes: []results.Probe{{Rate: 100, Stage: "climb", Pass: true, Result: res,
		Terms: []results.Term{{Text: "p99<=5ms", Pass: true, Shown: "2ms", Unit: "ms", Bound: 5, Measured: 2}}}},
		MaxRate: 100, Found: true, Summary: "The highest rate meeting p99<=5ms is 100 ops/s.", Reliable: &no,
		ReliableWhy: "Unreliable: other work on this host used 42% of its CPU during probe 1 (more than 10%)."}
	var b bytes.Buffer
	if err := Write(&b, Page{Sweep: f.Sweep()}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{f.ReliableWhy, "other cpu", "42%", ">reliable<", ">NO<"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}
