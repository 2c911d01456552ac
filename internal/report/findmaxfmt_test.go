package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/results/resultstest"
)

// unreliableSearch is a search of three probes beside other work on the
// host, the second interrupted by a pause, flagged unreliable.
func unreliableSearch() *results.FindMax {
	probe := func(rate, other float64, pass bool) results.Probe {
		res := resultstest.Result(results.LoadModel{Type: results.Open, Rate: rate}, resultstest.Step{Level: rate, Throughput: rate, LatencyMs: 2}, resultstest.T0, "")
		res.Interference = &results.Interference{Cores: 2, Other: 2 * other, OtherShare: other}
		return results.Probe{Rate: rate, Stage: "climb", Pass: pass, Result: res, Terms: []results.Term{{Text: "p99<=5ms", Pass: pass, Shown: "2ms"}}}
	}
	paused := probe(200, 0.4, false)
	paused.Terms, paused.Interrupted = nil, "no operation was answered for 4.0 s from 1.0 s into the measured phase"
	no := false
	f := &results.FindMax{SLO: []string{"p99<=5ms"}, AchievedShare: 0.95, Start: 100, StartFrom: "--start", Factor: 2, Precision: 0.05,
		Probes: []results.Probe{probe(100, 0.05, true), paused, probe(200, 0.42, false)}, MaxRate: 100, Found: true,
		Summary: "The highest rate meeting p99<=5ms is 100 ops/s.", Reliable: &no,
		ReliableWhy: "Unreliable: other work on this host used 42% of its CPU during probe 3 (more than 10%). Run it again on a quiet host (or give --accept-noise to keep this answer)."}
	f.Outcome = results.Completed
	return f
}

// TestFindMaxSaysHowSure: the console and the Markdown carry the other
// work per probe, the interrupted probe as not judged, the reliability
// flag in the header and its sentence under the summary.
func TestFindMaxSaysHowSure(t *testing.T) {
	f := unreliableSearch()
	for name, write := range map[string]func(*bytes.Buffer) error{
		"console":  func(b *bytes.Buffer) error { return WriteFindMaxConsole(b, f) },
		"markdown": func(b *bytes.Buffer) error { return WriteFindMaxMarkdown(b, f) },
	} {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, want := range []string{"other cpu", "5%", "42%", "not judged: the server stopped answering (no operation was answered for 4.0 s", "reliable", "NO", f.ReliableWhy[:60]} {
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks %q:\n%s", name, want, out)
			}
		}
	}
}
