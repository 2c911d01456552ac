package generate

import "math/rand/v2"

// State is one worker's generator state: its own seeded random source
// (math/rand/v2, PCG) and scratch space. Never shared between goroutines.
type State struct {
	Rand *rand.Rand

	// pcg lives inside State so that NewState allocates once and the
	// random source sits next to the rest of the worker's state.
	pcg rand.PCG
	// tsInc is the increment of the next BSON timestamp this worker makes,
	// so timestamps drawn in the same second stay distinct per worker.
	tsInc uint32
}

// NewState returns a State whose random source is PCG seeded with (seed,
// stream). Give each worker the run's seed and its own stream so that runs
// are reproducible and workers do not repeat each other.
func NewState(seed, stream uint64) *State {
	st := &State{}
	st.pcg.Seed(seed, stream)
	st.Rand = rand.New(&st.pcg)
	return st
}
