package ab

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongoload/mongoload/internal/results"
)

// ABOptions are how an A/B comparison judges a shape's latencies.
type ABOptions struct {
	// Threshold is the smallest effect flagged, as a share: 0.10 flags a
	// shape whose candidate is 10% slower (or faster) or more.
	Threshold float64
	// Alpha is the test's significance level.
	Alpha float64
}

// DefaultABOptions flag a 10% effect at the 1% level.
func DefaultABOptions() ABOptions { return ABOptions{Threshold: 0.10, Alpha: 0.01} }

// ABTest names the test Judge runs, for the file.
const ABTest = "van Elteren's stratified Wilcoxon rank-sum test over every latency of the shape (each round a stratum, two-sided), and a one-sided t-test that the rounds' shifts (the median of B/A over the deciles 10..90, each round a replicate) lie beyond the threshold; p is the larger of the two; flagged where p < alpha"

// ABJudgement is what the latencies of one shape say.
type ABJudgement struct {
	Flag        string
	Why         string
	Shift       float64   // B over A, typical over the distribution
	RoundShifts []float64 // each round's
	P           float64   // the test's two-sided p-value
}

// JudgeShape compares one shape's latency histograms (microseconds), round
// by round: a[i] and b[i] are round i's on each side (nil: no operation).
//
// The test is van Elteren's (J. Amer. Statist. Assoc. 55, 1960): the
// Wilcoxon rank-sum statistic of every latency in each round, weighted by
// 1/(n+1) and summed over rounds, so that drift of the host between rounds
// (which alternating A B B A spreads evenly) never passes for a difference.
// With thousands of latencies any shift is "significant", and the host's
// drift between rounds is not in the rank test. So the rounds, the real
// replicates, must also show the shift beyond the minimum effect: a
// one-sided t-test of their log shifts against log(1+Threshold) (beyond),
// a test of a minimum effect rather than of no effect, which keeps an A/A
// comparison clean on a busy host.
func JudgeShape(a, b []*hdrhistogram.Histogram, o ABOptions) ABJudgement {
	j := ABJudgement{Flag: results.FlagNone, P: 1, Shift: 1}
	ma, mb := mergeAll(a), mergeAll(b)
	if ma.TotalCount() == 0 || mb.TotalCount() == 0 {
		j.Why = "not measured on both sides"
		return j
	}
	j.Shift = shift(ma, mb)
	var t, e, v float64
	for i := range min(len(a), len(b)) {
		if a[i] == nil || b[i] == nil || a[i].TotalCount() == 0 || b[i].TotalCount() == 0 {
			continue
		}
		j.RoundShifts = append(j.RoundShifts, results.Round3(shift(a[i], b[i])))
		w, ew, vw, n := rankSum(a[i], b[i])
		t += w / (n + 1)
		e += ew / (n + 1)
		v += vw / ((n + 1) * (n + 1))
	}
	pRank := 1.0
	if v > 0 {
		z := (t - e) / math.Sqrt(v)
		pRank = math.Erfc(math.Abs(z) / math.Sqrt2)
	}
	j.Shift = results.Round3(j.Shift)
	up, down := 1+o.Threshold, 1/(1+o.Threshold)
	switch {
	case j.Shift >= up:
		j.P = max(pRank, beyond(j.RoundShifts, up))
		if j.P < o.Alpha {
			j.Flag, j.Why = results.FlagRegression, fmt.Sprintf("%.2fx slower across the distribution, beyond %.2fx across rounds (p = %.2g)", j.Shift, up, j.P)
		}
	case j.Shift <= down:
		j.P = max(pRank, beyond(invert(j.RoundShifts), up))
		if j.P < o.Alpha {
			j.Flag, j.Why = results.FlagImprovement, fmt.Sprintf("%.2fx faster across the distribution, beyond %.2fx across rounds (p = %.2g)", 1/j.Shift, up, j.P)
		}
	default:
		j.P = pRank
		j.Why = fmt.Sprintf("a shift of %.2fx, within the %.0f%% threshold (rank test p = %.2g)", j.Shift, 100*o.Threshold, pRank)
	}
	if j.Flag == results.FlagNone && j.Why == "" {
		j.Why = fmt.Sprintf("a shift of %.2fx, not shown beyond %.2fx (p = %.2g: rank test %.2g, rounds %v)", j.Shift, up, j.P, pRank, j.RoundShifts)
	}
	return j
}

// mergeAll adds histograms into a new one.
func mergeAll(hs []*hdrhistogram.Histogram) *hdrhistogram.Histogram {
	var out *hdrhistogram.Histogram
	for _, h := range hs {
		if h == nil {
			continue
		}
		if out == nil {
			out = hdrhistogram.Import(h.Export())
			continue
		}
		out.Merge(h)
	}
	if out == nil {
		return hdrhistogram.New(1, 2, 1)
	}
	return out
}

// shift is the median over the deciles 10..90 of b's value over a's: how
// much slower b is across the distribution, not only at one percentile.
func shift(a, b *hdrhistogram.Histogram) float64 {
	r := make([]float64, 0, 9)
	for q := 10.0; q <= 90; q += 10 {
		va, vb := float64(a.ValueAtQuantile(q)), float64(b.ValueAtQuantile(q))
		if va > 0 && vb > 0 {
			r = append(r, vb/va)
		}
	}
	if len(r) == 0 {
		return 1
	}
	sort.Float64s(r)
	return r[len(r)/2]
}

// rankSum is the Wilcoxon rank-sum of b's latencies among a's and b's
// (midranks for ties: a histogram's bucket is one tied value), its
// expectation and its variance with the tie correction, and n.
func rankSum(a, b *hdrhistogram.Histogram) (w, mean, variance, n float64) {
	counts := map[int64][2]int64{}
	for i, h := range []*hdrhistogram.Histogram{a, b} {
		for _, bar := range h.Distribution() {
			if bar.Count > 0 {
				c := counts[bar.From]
				c[i] += bar.Count
				counts[bar.From] = c
			}
		}
	}
	keys := make([]int64, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var below, ties float64
	for _, k := range keys {
		c := counts[k]
		t := float64(c[0] + c[1])
		w += float64(c[1]) * (below + (t+1)/2)
		ties += t*t*t - t
		below += t
	}
	na, nb := float64(a.TotalCount()), float64(b.TotalCount())
	n = na + nb
	mean = nb * (n + 1) / 2
	variance = na * nb / 12 * ((n + 1) - ties/(n*(n-1)))
	return w, mean, variance, n
}
