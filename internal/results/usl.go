package results

// USL is the Universal Scalability Law fitted to a concurrency sweep's
// throughput (capacity/usl): X(N) = λN / (1 + σ(N−1) + κN(N−1)).
type USL struct {
	Sigma  float64 `json:"sigma"`  // contention: the serial share
	Kappa  float64 `json:"kappa"`  // coherency: the crosstalk that makes throughput fall past the peak
	Lambda float64 `json:"lambda"` // ops/s of one worker without either
	// PeakConcurrency is where the law's throughput peaks, √((1−σ)/κ);
	// 0 when κ is 0 (no peak: throughput levels off towards λ/σ, given as
	// PeakThroughput).
	PeakConcurrency float64 `json:"peakConcurrency"`
	PeakThroughput  float64 `json:"peakThroughput"`
	R2              float64 `json:"r2"` // of the fit to the measured levels
	// Points are the levels fitted (complete steps); Predictions the
	// law's throughput at each measured level and beyond.
	Points      int             `json:"points"`
	Predictions []USLPrediction `json:"predictions"`
	Note        string          `json:"note,omitempty"`
}

// USLPrediction is the law's throughput at one concurrency.
type USLPrediction struct {
	Concurrency float64 `json:"concurrency"`
	Throughput  float64 `json:"throughput"`
	// Measured is the sweep's own throughput there, when it measured it.
	Measured *float64 `json:"measured,omitempty"`
	// Beyond is how far past the largest measured level this is (N over
	// it), when past it; FarBeyond flags a prediction beyond 2.5 times it,
	// where the law is an extrapolation to be checked, not a measurement.
	Beyond    float64 `json:"beyond,omitempty"`
	FarBeyond bool    `json:"farBeyond,omitempty"`
}

// USLThroughput is the law's throughput at concurrency n: the one place
// the formula is written (capacity/usl fits it, renderers draw it).
func USLThroughput(sigma, kappa, lambda, n float64) float64 {
	return lambda * n / (1 + sigma*(n-1) + kappa*n*(n-1))
}

// Throughput is the fitted law's throughput at concurrency n.
func (u *USL) Throughput(n float64) float64 { return USLThroughput(u.Sigma, u.Kappa, u.Lambda, n) }
