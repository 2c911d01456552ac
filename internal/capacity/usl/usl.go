// Package usl fits Gunther's Universal Scalability Law to measured
// throughput by concurrency and predicts beyond it:
//
//	X(N) = λN / (1 + σ(N−1) + κN(N−1))
//
// σ is contention (the serial share: queueing for a shared resource), κ is
// coherency (the cost of keeping each worker's view consistent, which makes
// throughput fall past a peak), λ the throughput of one worker without
// either. It is pure arithmetic on points: no clock, no server.
package usl

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/optimize"

	"github.com/mongoload/mongoload/internal/results"
)

// Point is one measured level: N workers completed X operations per second.
type Point struct{ N, X float64 }

// Model is a fitted law.
type Model struct {
	Sigma, Kappa, Lambda float64
	R2                   float64 // the coefficient of determination of the fit
}

// Throughput is the law's throughput at concurrency n.
func (m Model) Throughput(n float64) float64 {
	return results.USLThroughput(m.Sigma, m.Kappa, m.Lambda, n)
}

// PeakConcurrency is where the law's throughput peaks, √((1−σ)/κ); +Inf
// when κ is 0 (no coherency cost: throughput only levels off, towards λ/σ).
func (m Model) PeakConcurrency() float64 {
	if m.Kappa <= 0 || m.Sigma >= 1 {
		if m.Sigma >= 1 {
			return 1
		}
		return math.Inf(1)
	}
	return math.Sqrt((1 - m.Sigma) / m.Kappa)
}

// MinPoints is the fewest levels a fit takes: three parameters need more
// than three points to say anything about how well they fit.
const MinPoints = 4

// Fit finds σ, κ ≥ 0 and λ > 0 minimising the squared error of the law
// against points (least squares, as the R usl package's "nlxb" method).
// For given σ and κ the best λ has a closed form (a linear least-squares
// fit through the origin), so the search is over σ and κ only: gonum's
// Nelder-Mead from a grid of starts, the best of them kept.
func Fit(points []Point) (Model, error) {
	ps := append([]Point(nil), points...)
	sort.Slice(ps, func(i, j int) bool { return ps[i].N < ps[j].N })
	if len(ps) < MinPoints {
		return Model{}, fmt.Errorf("the law needs at least %d concurrency levels, the sweep measured %d", MinPoints, len(ps))
	}
	for _, p := range ps {
		if p.N < 1 || p.X <= 0 || math.IsNaN(p.X) || math.IsInf(p.X, 0) {
			return Model{}, fmt.Errorf("a level of %g workers at %g ops/s cannot be fitted: every level needs at least one worker and some throughput", p.N, p.X)
		}
	}
	sse := func(x []float64) float64 {
		m := model(ps, math.Abs(x[0]), math.Abs(x[1]))
		return residual(ps, m)
	}
	best, bestSSE := Model{}, math.Inf(1)
	for _, s0 := range []float64{0.001, 0.05, 0.3} {
		for _, k0 := range []float64{0, 1e-4, 1e-2} {
			res, err := optimize.Minimize(optimize.Problem{Func: sse}, []float64{s0, k0},
				&optimize.Settings{FuncEvaluations: 4000}, &optimize.NelderMead{})
			if err != nil && res == nil {
				continue
			}
			if v := sse(res.X); v < bestSSE {
				bestSSE, best = v, model(ps, math.Abs(res.X[0]), math.Abs(res.X[1]))
			}
		}
	}
	if math.IsInf(bestSSE, 1) {
		return Model{}, errors.New("no fit converged")
	}
	best.R2 = rSquared(ps, bestSSE)
	return best, nil
}

// model is the law with σ and κ and the λ that fits points best.
func model(ps []Point, sigma, kappa float64) Model {
	var xg, gg float64
	for _, p := range ps {
		g := p.N / (1 + sigma*(p.N-1) + kappa*p.N*(p.N-1))
		xg += p.X * g
		gg += g * g
	}
	return Model{Sigma: sigma, Kappa: kappa, Lambda: xg / gg}
}

func residual(ps []Point, m Model) float64 {
	var s float64
	for _, p := range ps {
		d := p.X - m.Throughput(p.N)
		s += d * d
	}
	return s
}

// rSquared is 1 − SSE/SST.
func rSquared(ps []Point, sse float64) float64 {
	var mean float64
	for _, p := range ps {
		mean += p.X
	}
	mean /= float64(len(ps))
	var sst float64
	for _, p := range ps {
		sst += (p.X - mean) * (p.X - mean)
	}
	if sst == 0 {
		return 1
	}
	return 1 - sse/sst
}
