package capacity

import (
	"flag"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mongoload/mongoload/internal/analysis"
)

// The capacity4 check on the plateau server, with the one thing no
// search sees: the server's capacity in the minutes after it. A run is
// three searches of 16 probes, each followed by the independent client's
// 5 windows at its answer and 5 at 1.25 times its high end, judged as
// the check judges them (both ends shown, high/low at most 1.4, the low
// ends met in 12 of the 15 windows pooled, the high ends missed in 9).
// The capacity those windows meet is the search's times a lognormal
// factor of sd -drift (one factor for a search's 10 windows: the real
// ones came in runs). Skipped unless -capacity4 names how many runs:
//
//	go test ./internal/capacity -run TestCapacity4Sim -v -args -capacity4=400 -drift=0.08
var (
	capacity4Flag = flag.Int("capacity4", 0, "runs of the capacity4 check TestCapacity4Sim simulates (0: skip)")
	driftFlag     = flag.Float64("drift", 0.08, "sd of the log of the capacity's change between a search and the independent client's windows")
)

func TestCapacity4Sim(t *testing.T) {
	runs := *capacity4Flag
	if runs <= 0 {
		t.Skip("-capacity4 not set")
	}
	objs, err := analysis.ParseObjectives("p99<=8ms")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(4, 4))
	var passed, wideRuns, lowRuns, highRuns, metLow, missHigh, windows int
	for run := 0; run < runs; run++ {
		met, miss, wide := 0, 0, false
		for s := 0; s < 3; s++ {
			f := searchOnce(t, &stallServer{rng: rng, scale: 1, curve: plateau, drops: 7500}, objs)
			iv := f.MaxRateInterval
			if !f.Found || iv == nil || iv.Unshown != "" || iv.High == 0 || iv.High > 1.4*iv.Low {
				wide = true
				if iv == nil || iv.High == 0 {
					continue
				}
			}
			later := stallServer{scale: math.Exp(*driftFlag * rng.NormFloat64()), curve: plateau}
			for w := 0; w < 5; w++ {
				if rng.Float64() >= later.windowFails(f.MaxRate) {
					met++
				}
				if rng.Float64() < later.windowFails(1.25*iv.High) {
					miss++
				}
			}
		}
		metLow, missHigh, windows = metLow+met, missHigh+miss, windows+15
		if wide {
			wideRuns++
		}
		if met < 12 {
			lowRuns++
		}
		if miss < 9 {
			highRuns++
		}
		if !wide && met >= 12 && miss >= 9 {
			passed++
		}
	}
	t.Logf("drift sd %.2f, margin %.2f: %d of %d runs pass; failing on a width or an end unshown %d, on the low ends %d, on the high ends %d; the low ends met in %.0f%% of windows, the high ends missed in %.0f%%",
		*driftFlag, EdgeMargin, passed, runs, wideRuns, lowRuns, highRuns, 100*float64(metLow)/float64(windows), 100*float64(missHigh)/float64(windows))
}
