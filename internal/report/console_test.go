package report

import (
	"bytes"
	"testing"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/results/resultstest"
)

// TestWriteConsoleGolden protects the final report people read.
func TestWriteConsoleGolden(t *testing.T) {
	interrupted := resultstest.BaseInfo(results.LoadModel{Type: results.Sessions, Sessions: 1000, ThinkTime: "exp(2s)"})
	interrupted.Outcome, interrupted.Reason = results.Interrupted, "interrupt signal during warm-up"
	interrupted.Label = ""

	tests := []struct {
		name string
		res  *results.Result
	}{
		// errors by class, an operation never run (dashes), an overflow note
		{"closed.golden", resultstest.ClosedRun().Result()},
		// open loop: latency from the scheduled start, service time table
		{"open.golden", resultstest.OpenRun().Result()},
		// stopped before measuring: no table rows but TOTAL, a note says why
		{"interrupted.golden", results.Build(interrupted, metrics.NewTotals([]string{"browse"}, false), nil)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteConsole(&b, tt.res); err != nil {
				t.Fatal(err)
			}
			resultstest.Golden(t, tt.name, b.Bytes())
		})
	}
}

type failWriter struct{ err error }

func (f failWriter) Write([]byte) (int, error) { return 0, f.err }
