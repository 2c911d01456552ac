package capture

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/mongoload/mongoload/internal/capture/source"
	"github.com/mongoload/mongoload/internal/config"
)

// Applications arrive in bursts: a window's mean rate replayed evenly
// hides the seconds a server is pushed hardest. Where a source recorded
// every operation with its time, the file keeps the rate second by second
// as open-loop stages, repeated for as long as the run lasts
// (run.repeatStages), scaled so that their mean is the captured rate:
// --rate-scale multiplies the curve as it multiplies the rate.

// maxStages bounds the stages written: a longer window is cut into as
// many steps of whole seconds.
const maxStages = 600

// minCovered is the least part of a second at the window's edges that is
// a point of its own; a sliver joins its neighbour.
const minCovered = 0.25

// Curve is the captured rate over time.
type Curve struct {
	Step       time.Duration
	Rates      []float64 // operations per second, one per step, mean = the rate written
	PeakToMean float64
}

// curve is the per-second rate of the sources that recorded every
// operation one by one, over their window, scaled to mean rate; nil when
// fewer than two seconds hold operations.
func curve(sources []*source.Source, rate float64) *Curve {
	arr := map[int64]float64{}
	var from, to time.Time
	for _, s := range sources {
		if s.Executions > 0 && s.Complete && len(s.Arrivals) > 0 {
			for sec, n := range s.Arrivals {
				arr[sec] += n
			}
			if from.IsZero() || s.From.Before(from) {
				from = s.From
			}
			if s.To.After(to) {
				to = s.To
			}
		}
	}
	first, last := from.Unix(), to.Unix()
	if len(arr) == 0 || last <= first || rate <= 0 {
		return nil
	}
	n := int(last - first + 1)
	counts, covered := make([]float64, n), make([]float64, n)
	for sec, c := range arr {
		counts[min(max(sec-first, 0), int64(n-1))] += c
	}
	for i := range covered {
		lo := math.Max(float64(first+int64(i)), float64(from.UnixNano())/1e9)
		hi := math.Min(float64(first+int64(i)+1), float64(to.UnixNano())/1e9)
		covered[i] = math.Max(0, hi-lo)
	}
	merge := func(from, into int) {
		counts[into] += counts[from]
		covered[into] += covered[from]
		counts, covered = slices.Delete(counts, from, from+1), slices.Delete(covered, from, from+1)
	}
	if len(counts) > 1 && covered[len(covered)-1] < minCovered {
		merge(len(counts)-1, len(counts)-2)
	}
	if len(counts) > 1 && covered[0] < minCovered {
		merge(0, 1)
	}
	step := (len(counts) + maxStages - 1) / maxStages
	c := &Curve{Step: time.Duration(step) * time.Second}
	for i := 0; i < len(counts); i += step {
		j := min(i+step, len(counts))
		var k, d float64
		for x := i; x < j; x++ {
			k, d = k+counts[x], d+covered[x]
		}
		c.Rates = append(c.Rates, k/math.Max(d, minCovered))
	}
	if len(c.Rates) < 2 {
		return nil
	}
	mean := 0.0
	for _, r := range c.Rates {
		mean += r
	}
	mean /= float64(len(c.Rates))
	if mean <= 0 {
		return nil
	}
	for i := range c.Rates {
		c.Rates[i] = round(c.Rates[i]*rate/mean, 2)
	}
	c.PeakToMean = round(slices.Max(c.Rates)/rate, 2)
	return c
}

// Stages are the curve as open-loop stages.
func (c *Curve) Stages() config.Stages {
	out := make(config.Stages, len(c.Rates))
	for i, r := range c.Rates {
		out[i] = config.Stage{Duration: config.Duration(c.Step), Target: r}
	}
	return out
}

// Note says what the curve is, for the header and the summary.
func (c *Curve) Note(rate float64) string {
	return fmt.Sprintf("arrivals: the rate of each %s of the window (%d points): mean %.2f/s, peak %.2f/s, peak-to-mean %.2f; written as run.stages, played again and again for as long as the run lasts (run.repeatStages); --rate-scale multiplies the curve, --stages replaces it",
		c.Step, len(c.Rates), rate, slices.Max(c.Rates), c.PeakToMean)
}
