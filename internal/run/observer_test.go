package run

import (
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/mongodb"
)

// TestClientTelemetryWarns: mongoload's own commands inside the measured
// phase are summed over it, and a warning names what could move the
// figures (one slow command, or too much time together); the same
// commands outside it never warn.
func TestClientTelemetryWarns(t *testing.T) {
	light := []mongodb.CommandStat{{Phase: "measured", Name: "serverStatus", Count: 10, Total: 20 * time.Millisecond, Max: 3 * time.Millisecond},
		{Phase: "outside", Name: "collStats", Count: 2, Total: 400 * time.Millisecond, Max: 318 * time.Millisecond}}
	tl := clientTelemetry(light, 10)
	if tl.Warning != "" || tl.MeasuredMs != 20 || tl.MeasuredShare != 0.002 || len(tl.Commands) != 2 {
		t.Errorf("light: %+v", tl)
	}
	heavy := []mongodb.CommandStat{{Phase: "measured", Name: "collStats", Count: 1, Total: 318 * time.Millisecond, Max: 318 * time.Millisecond}}
	th := clientTelemetry(heavy, 10)
	if !strings.Contains(th.Warning, "one collStats took 318 ms") || !strings.Contains(th.Warning, "3.2% of the measured phase") {
		t.Errorf("heavy: %q", th.Warning)
	}
}
