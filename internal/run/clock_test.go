package run

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/engine"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/report"
	"github.com/mongoload/mongoload/internal/results"
)

// TestHeaderSaysWhichClock: the console header and the results file's load
// section name the clock the engine uses for the configured load model
// (engine.Clock, whose measurements TestClockNamesWhatIsMeasured checks),
// never "from sending" where the latency starts earlier.
func TestHeaderSaysWhichClock(t *testing.T) {
	tests := []struct {
		name    string
		set     func(*config.Run, *config.Connection)
		clock   string
		service bool
		header  string
	}{
		{"closed within the pool", func(r *config.Run, _ *config.Connection) { r.Concurrency = 8 }, metrics.FromSend, false, "from sending each operation"},
		{"closed beyond the pool", func(r *config.Run, c *config.Connection) { r.Concurrency = 16; c.MaxPoolSize = 2 }, metrics.FromReady, false, "from when each worker was ready to send"},
		{"sessions", func(r *config.Run, _ *config.Connection) {
			r.Sessions = 50
			r.ThinkTime = config.Duration(50 * time.Millisecond)
		}, metrics.FromDue, true, "from when each session's operation was due"},
		{"open loop", func(r *config.Run, _ *config.Connection) { r.Rate = 100 }, metrics.FromScheduled, true, "from each operation's scheduled start"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := config.Default()
			tt.set(&cfg.Run, &cfg.Connection)
			o, lm := engineOptions(cfg)
			if lm.LatencyFrom != engine.Clock(o) || lm.LatencyFrom != tt.clock || (lm.ServiceTimeFrom == metrics.FromSend) != tt.service {
				t.Errorf("load section: latencyFrom %q serviceTimeFrom %q, want %q (service %v)", lm.LatencyFrom, lm.ServiceTimeFrom, tt.clock, tt.service)
			}
			var b bytes.Buffer
			if err := report.WriteConsole(&b, &results.Result{Load: lm}); err != nil {
				t.Fatal(err)
			}
			line := ""
			for _, l := range strings.Split(b.String(), "\n") {
				if strings.HasPrefix(l, "latency:") {
					line = l
				}
			}
			if !strings.Contains(line, tt.header) || (tt.clock != metrics.FromSend && strings.Contains(line, "from sending")) {
				t.Errorf("header %q, want it to say %q", line, tt.header)
			}
		})
	}
}
