package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/results"
)

func historyOf(workloads ...string) *results.History {
	h := &results.History{Store: "s", Method: results.HistoryMethod{Name: "e-divisive means", PValue: 0.05, Permutations: 199, Seed: 1, Threshold: 0.05}}
	v := func(x float64) *float64 { return &x }
	t0 := time.Date(2026, 11, 1, 2, 0, 0, 0, time.UTC)
	for _, name := range workloads {
		h.Workloads = append(h.Workloads, results.HistoryWorkload{Name: name,
			Runs: []results.HistoryRun{{Time: t0, Label: "b1", Digest: "d"}, {Time: t0.Add(time.Hour), Label: "b2", Digest: "d"}, {Time: t0.Add(2 * time.Hour), Label: "b3", Digest: "e"}},
			Series: []results.HistorySeries{
				{Metric: "throughput", Unit: "ops/s", HigherIsBetter: true, Values: []*float64{v(2000), v(2000), v(1700)},
					ChangePoints: []results.ChangePoint{{Run: 2, Label: "b3", Change: -15, PValue: 0.005, MeanBefore: 2000, MeanAfter: 1700, Regression: true}}, Regressed: true},
				{Metric: "p99_read", Unit: "ms", Values: []*float64{v(1.5), nil, v(1.25)}},
			}})
	}
	return h
}

// TestHistoryText: each change point in a sentence (where, how much, the
// means, how sure, whether a regression), the others said to have none,
// and a workload whose definition changed within the series flagged.
func TestHistoryText(t *testing.T) {
	var b bytes.Buffer
	if err := WriteHistory(&b, historyOf("w"), "text"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"at b3: -15.0% (2000.0 → 1700.0 ops/s), p = 0.005, a regression",
		"p99_read (ms, lower is better): no change point",
		"workload digest d, e (its definition changed",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
}

// TestHistoryCSV: Otava's layout, a run's missing value an empty cell; a
// workload column only when there are several.
func TestHistoryCSV(t *testing.T) {
	var b bytes.Buffer
	WriteHistory(&b, historyOf("w"), "csv")
	want := "time,label,throughput,p99_read\n2026-11-01T02:00:00Z,b1,2000,1.5\n2026-11-01T03:00:00Z,b2,2000,\n2026-11-01T04:00:00Z,b3,1700,1.25\n"
	if b.String() != want {
		t.Errorf("csv:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	WriteHistory(&b, historyOf("w", "v"), "csv")
	if lines := strings.Split(b.String(), "\n"); lines[0] != "time,label,workload,throughput,p99_read" || !strings.HasSuffix(lines[4], ",b1,v,2000,1.5") {
		t.Errorf("csv of two workloads:\n%s", b.String())
	}
}
