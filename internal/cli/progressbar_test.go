package cli

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/loader"
	"github.com/mongoload/mongoload/internal/run"
)

// TestProgressBarHugeLoad: the progress bar of a huge load gives a bounded
// ETA (it overflowed to -2562047h47m16s).
func TestProgressBarHugeLoad(t *testing.T) {
	p := loader.Progress{Collection: "d.c", Total: math.MaxInt64, Written: 10, Elapsed: time.Second}
	if bar := run.ProgressLine(p); !strings.Contains(bar, "ETA over 100 years") {
		t.Errorf("load's progress bar: %q", bar)
	}
}
