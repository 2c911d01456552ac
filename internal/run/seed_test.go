package run

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/loader"
)

// TestSeedWorkersAsDocumented: --seed-workers' help states the default the
// code uses: the smaller of --concurrency and the loader's default.
func TestSeedWorkersAsDocumented(t *testing.T) {
	def := loader.DefaultWorkers()
	tests := []struct{ concurrency, flag, want int }{
		{1, 0, 1},
		{def + 50, 0, def}, // more workers than the loader's default: capped
		{def + 50, 3, 3},   // the flag wins
		{2, 9, 9},
	}
	for _, tt := range tests {
		cfg := config.Default()
		cfg.Run.Concurrency, cfg.Run.SeedWorkers = tt.concurrency, tt.flag
		if got := seedWorkers(cfg); got != tt.want {
			t.Errorf("concurrency %d, --seed-workers %d: %d workers, want %d", tt.concurrency, tt.flag, got, tt.want)
		}
	}
	for _, s := range config.Settings {
		if s.Flag == "seed-workers" && !strings.Contains(s.Usage, "smaller of --concurrency and 2 per core, 4 to 32") {
			t.Errorf("--seed-workers help does not state the default: %q", s.Usage)
		}
	}
}

// TestSeedLines: the progress line of a huge seed gives a bounded ETA (it
// overflowed to -2562047h47m16s), and the last line of an interrupted seed
// says it is unfinished rather than read like a finished one.
func TestSeedLines(t *testing.T) {
	tests := []struct {
		name      string
		p         loader.Progress
		want, not string
	}{
		{"huge seed", loader.Progress{Collection: "d.c", Total: math.MaxInt64, Written: 10, Elapsed: time.Second}, "ETA over 100 years", "-"},
		{"ordinary", loader.Progress{Collection: "d.c", Total: 1000, Written: 250, Elapsed: time.Second}, "ETA 3s", "unfinished"},
		{"finished", loader.Progress{Collection: "d.c", Total: 1000, Written: 1000, Elapsed: 2 * time.Second, Final: true}, "1000/1000 documents (100%) 500 docs/s 0.0 MB/s in 2s", "unfinished"},
		{"interrupted", loader.Progress{Collection: "d.c", Total: 1000, Written: 370, Elapsed: 2 * time.Second, Final: true}, "370/1000 documents (37%) 185 docs/s 0.0 MB/s stopped after 2s, unfinished", " in 2s"},
	}
	for _, tt := range tests {
		got := seedLine(tt.p)
		if !strings.Contains(got, tt.want) || strings.Contains(got, tt.not) {
			t.Errorf("%s: %q; want %q and not %q", tt.name, got, tt.want, tt.not)
		}
	}
}

// TestExplainHelpSaysClientSide: --explain's default threshold is
// compared with client-side latency, and its help says so rather than
// pass it off as the server's slowms; the threshold is the one the code uses.
func TestExplainHelpSaysClientSide(t *testing.T) {
	cfg := config.Default()
	cfg.Run.Explain = 3
	if got := slowThreshold(cfg); got != 100*time.Millisecond {
		t.Fatalf("--explain alone: threshold %s", got)
	}
	for _, s := range config.Settings {
		if s.Flag == "explain" && (!strings.Contains(s.Usage, "100ms or more of client-side latency") || !strings.Contains(s.Usage, "not the server's slowms")) {
			t.Errorf("--explain help: %q", s.Usage)
		}
	}
}
