package analysis

import (
	"fmt"
	"math"

	"github.com/mongoload/mongoload/internal/capacity/usl"
	"github.com/mongoload/mongoload/internal/results"
)

// extrapolate says, for a stage no input carries as measured, whether a
// concurrency sweep's Universal Scalability Law carries it at more
// workers: the fewest workers (up to the law's peak) at which its
// throughput, in users as the plan counts them, reaches need. Only an
// input that met every objective counts, as for a measured choice.
func extrapolate(c *results.Comparison, p *results.UserPlan, inputs []CompareInput, need float64) *results.StageUSL {
	var best *results.StageUSL
	for i, in := range inputs {
		sw := in.Sweep
		if sw == nil || sw.Load.Parameter != "concurrency" || (i != c.Baseline && c.Inputs[i].MeetsAll != nil && !*c.Inputs[i].MeetsAll) {
			continue
		}
		u := sw.USL
		if u == nil {
			u = usl.FitSweep(sw)
		}
		if u == nil {
			continue
		}
		m := usl.Model{Sigma: u.Sigma, Kappa: u.Kappa, Lambda: u.Lambda}
		toUsers := p.Users / p.BaseThroughput
		top := 0.0
		for _, pr := range u.Predictions {
			if pr.Measured != nil {
				top = math.Max(top, pr.Concurrency)
			}
		}
		limit := m.PeakConcurrency()
		if math.IsInf(limit, 1) {
			limit = 100 * top // no peak: the law levels off; look no further than 100x
		}
		for n := math.Ceil(top) + 1; n <= limit; n++ {
			if x := m.Throughput(n); x*toUsers >= need {
				s := &results.StageUSL{Input: c.Inputs[i].Label, Concurrency: n, Throughput: round3(x), Users: round3(x * toUsers),
					Beyond: round3(n / top), FarBeyond: n > usl.FarBeyond*top}
				if best == nil || s.Concurrency < best.Concurrency {
					best = s
				}
				break
			}
		}
	}
	return best
}

// extrapolationNote says what the law predicts for a stage.
func extrapolationNote(s *results.StageUSL) string {
	note := fmt.Sprintf("; %s's Universal Scalability Law carries it at %g workers (%s ops/s, %s users), %gx its largest level measured",
		s.Input, s.Concurrency, results.Rate(s.Throughput), results.Target(math.Round(s.Users)), s.Beyond)
	if s.FarBeyond {
		note += ": an extrapolation, to be measured before it is relied on"
	}
	return note
}
