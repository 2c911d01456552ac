package run

import (
	"fmt"
	"math"
	"strings"

	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
)

// The thresholds past which mongoload's own commands during the measured
// phase may have moved the figures: all of them together taking more
// than 1% of the phase (they run one at a time on their own connection),
// or one taking longer than 100 ms (a collStats on a big collection).
const (
	observerShare = 0.01
	observerOneMs = 100.0
)

// clientTelemetry is what the run asked the server besides the workload,
// by phase, with a warning when the commands inside the measured phase
// could have moved the figures.
func clientTelemetry(cmds []mongodb.CommandStat, measuredSeconds float64) *results.ClientTelemetry {
	t := &results.ClientTelemetry{Commands: []results.TelemetryCommand{}}
	var heavy []string
	for _, c := range cmds {
		tc := results.TelemetryCommand{Name: c.Name, Phase: c.Phase, Count: c.Count,
			TotalMs: round3(float64(c.Total.Microseconds()) / 1000), MaxMs: round3(float64(c.Max.Microseconds()) / 1000)}
		t.Commands = append(t.Commands, tc)
		if c.Phase != "measured" {
			continue
		}
		t.MeasuredMs += tc.TotalMs
		if tc.MaxMs > observerOneMs {
			heavy = append(heavy, fmt.Sprintf("one %s took %.0f ms", c.Name, tc.MaxMs))
		}
	}
	t.MeasuredMs = round3(t.MeasuredMs)
	if measuredSeconds > 0 {
		t.MeasuredShare = math.Round(t.MeasuredMs/(1000*measuredSeconds)*1e6) / 1e6
	}
	if t.MeasuredShare > observerShare {
		heavy = append([]string{fmt.Sprintf("together they took %.0f ms, %.1f%% of the measured phase", t.MeasuredMs, 100*t.MeasuredShare)}, heavy...)
	}
	if len(heavy) > 0 {
		t.Warning = "mongoload's own commands beside the workload (client.telemetry) may have moved the figures: " + strings.Join(heavy, "; ") +
			"; the server did their work beside the workload's (--server-telemetry=false turns the sampling off)"
	}
	return t
}
