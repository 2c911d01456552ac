package config

import (
	"math/rand/v2"
	"time"
)

// DefaultURI is the server a run talks to when nothing else is said.
const DefaultURI = "mongodb://127.0.0.1:27017"

// Default returns the built-in defaults, the lowest configuration layer.
func Default() *Config {
	return &Config{
		Connection: Connection{
			URI:     DefaultURI,
			AppName: "mongoload",
			Timeouts: Timeouts{
				Connect:         Duration(10 * time.Second),
				ServerSelection: Duration(10 * time.Second),
			},
		},
		Run: Run{
			Concurrency:   8,
			Duration:      Duration(30 * time.Second),
			Interval:      Duration(time.Second),
			SeedBatchSize: 1000,
			RandomSeed:    1,
		},
	}
}

// PickOperationSeed gives the run a fresh operation seed unless one was
// set. Each run (and each step of a sweep or a battery, StepSeed) must draw
// operations of its own: replaying the same keys and values on data an
// earlier run already changed makes updates that change nothing, and the
// server skips those writes, so the run would measure less work than the
// workload asks for.
func (r *Run) PickOperationSeed() {
	for r.OperationSeed == 0 {
		r.OperationSeed = rand.Uint64()
	}
}

// StepSeed is the operation seed of step i (from 0) of a sweep or a
// battery: step 0 keeps the run's seed, the others draw their own.
func StepSeed(seed uint64, i int) uint64 {
	if i == 0 {
		return seed
	}
	s := seed + uint64(i)*0x9E3779B97F4A7C15 // splitmix64's increment and finaliser
	s = (s ^ s>>30) * 0xBF58476D1CE4E5B9
	s = (s ^ s>>27) * 0x94D049BB133111EB
	return s ^ s>>31
}

// ApplyRateScale multiplies the rate and the open-loop stages' targets by
// RateScale, once: the scale is spent, so applying it again (a sweep step,
// a battery run reusing the configuration) changes nothing.
func (r *Run) ApplyRateScale() {
	if r.RateScale <= 0 || r.Rate == 0 {
		return
	}
	r.Rate *= r.RateScale
	for i := range r.Stages {
		r.Stages[i].Target *= r.RateScale
	}
	r.RateScale = 0
}
