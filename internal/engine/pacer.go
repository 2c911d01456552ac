package engine

import (
	"math"
	"time"
)

// Stage is one step of a ramp: for Duration (0: until the run ends), Target
// operations per second (open loop) or workers (closed loop).
type Stage struct {
	Duration time.Duration
	Target   float64
}

// Schedule says when each operation of an open-loop run is due. It is a pure
// function of the stages (the vegeta pacer's shape), so it is tested without
// a clock, and the achieved rate over a run is exactly the target whenever
// the generator keeps up: nothing accumulates sleep error.
type Schedule struct {
	stages []Stage
	// repeat plays the stages again from the first once they end: a
	// captured per-second curve followed for as long as the run lasts.
	repeat bool
	period time.Duration // the stages' total, when repeating
	cycle  float64       // operations due in one period
}

// NewSchedule returns the schedule of stages; a last stage with Duration 0
// goes on forever.
func NewSchedule(stages []Stage) *Schedule { return &Schedule{stages: stages} }

// Repeating returns the schedule of stages played again and again; stages
// with no duration (forever) or no operation at all are played once.
func Repeating(stages []Stage) *Schedule {
	s := &Schedule{stages: stages}
	for _, st := range stages {
		if st.Duration <= 0 {
			return s
		}
		s.period += st.Duration
		s.cycle += float64(st.Duration) / float64(time.Second) * st.Target
	}
	s.repeat = s.period > 0 && s.cycle > 0
	return s
}

// At returns the offset from the schedule's start at which operation n (from
// 0) is due with fixed arrivals, and false when the stages end before it.
func (s *Schedule) At(n int64) (time.Duration, bool) {
	if !s.repeat {
		return s.at(float64(n))
	}
	k := math.Floor(float64(n) / s.cycle)
	rest := min(max(float64(n)-k*s.cycle, 0), math.Nextafter(s.cycle, 0))
	at, ok := s.at(rest)
	return time.Duration(k)*s.period + at, ok
}

// at is At for one pass of the stages. Within a stage at rate r that began
// at s after k earlier operations, operation n is due at s + (n-k)/r.
func (s *Schedule) at(n float64) (time.Duration, bool) {
	var start time.Duration
	var before float64 // operations due before this stage
	for _, st := range s.stages {
		in := float64(st.Duration) / float64(time.Second) * st.Target
		if st.Target > 0 && (st.Duration == 0 || n < before+in) {
			return start + time.Duration((n-before)/st.Target*float64(time.Second)), true
		}
		if st.Duration == 0 {
			return 0, false
		}
		before += in
		start += st.Duration
	}
	return 0, false
}

// RateAt returns the target rate at offset t, and false once the stages end.
func (s *Schedule) RateAt(t time.Duration) (float64, bool) {
	if s.repeat {
		t %= s.period
	}
	var start time.Duration
	for _, st := range s.stages {
		if st.Duration == 0 || t < start+st.Duration {
			return st.Target, true
		}
		start += st.Duration
	}
	return 0, false
}

// next returns when the operation after one due at t falls with Poisson
// arrivals: an exponential gap at the rate in force at t, skipping stages
// with no rate.
func (s *Schedule) next(t time.Duration, exp float64) (time.Duration, bool) {
	for {
		rate, ok := s.RateAt(t)
		if !ok {
			return 0, false
		}
		if rate > 0 {
			return t + time.Duration(exp/rate*float64(time.Second)), true
		}
		t = s.stageEnd(t)
	}
}

// stageEnd returns the end of the stage in force at t.
func (s *Schedule) stageEnd(t time.Duration) time.Duration {
	var base time.Duration
	if s.repeat {
		base = t - t%s.period
		t %= s.period
	}
	var start time.Duration
	for _, st := range s.stages {
		start += st.Duration
		if t < start {
			return base + start
		}
	}
	return base + start
}
