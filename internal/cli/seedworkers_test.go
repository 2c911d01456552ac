package cli

import (
	"strings"
	"testing"

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
