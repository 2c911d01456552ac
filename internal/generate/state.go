package generate

import "math/rand/v2"

// State is one worker's generator state: its own seeded random source
// (math/rand/v2, PCG) and scratch space. Never shared between goroutines.
type State struct {
	Rand *rand.Rand
	// Vars are the values the current transaction's let drew (Let.Draw).
	Vars []Var

	// pcg lives inside State so that NewState allocates once and the
	// random source sits next to the rest of the worker's state.
	pcg rand.PCG
	// tsInc is the increment of the next BSON timestamp this worker makes,
	// so timestamps drawn in the same second stay distinct per worker.
	tsInc uint32
	// ids makes the worker's ObjectIds outside a load (clock.go).
	ids objectIDs
	// holding makes inserts hold the keys they take until SettleKeys;
	// held are those keys.
	holding bool
	held    []stateKey
	// load is the document a loader is generating (BeginDocument).
	load loadDoc
	// series is the current document's reading (series.go); docKey the
	// new key it took, when hasKey.
	series seriesDoc
	docKey int64
	hasKey bool
}

// stateKey is a key this worker holds in a key space.
type stateKey struct {
	ks *KeySpace
	k  int64
}

// NewState returns a State whose random source is PCG seeded with (seed,
// stream). Give each worker the run's seed and its own stream so that runs
// are reproducible and workers do not repeat each other.
func NewState(seed, stream uint64) *State {
	st := &State{}
	st.pcg.Seed(seed, stream)
	st.Rand = rand.New(&st.pcg)
	st.ids = newObjectIDs(seed, stream)
	return st
}

// HoldKeys makes the keys that this worker's inserts take from now on stay
// out of every query's reach (KeySpace.Settled) until SettleKeys: call it
// before building an operation, and SettleKeys once the operation is over,
// whatever its outcome.
func (st *State) HoldKeys() { st.holding = true }

// SettleKeys ends the hold on the keys taken since the last call.
func (st *State) SettleKeys() {
	for _, h := range st.held {
		h.ks.settle(h.k)
	}
	st.held = st.held[:0]
}

// newKey takes a new key of ks, held when the worker holds keys.
func (st *State) newKey(ks *KeySpace) int64 {
	if k, ok := st.pinnedKey(ks); ok {
		return k
	}
	if !st.holding {
		return ks.Next()
	}
	k := ks.hold()
	st.held = append(st.held, stateKey{ks, k})
	return k
}
