package run

import (
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/engine"
	"github.com/mongoload/mongoload/internal/mempolicy"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/workload"
)

// applyMemoryPolicy sets the collector for one measured step: the soft
// memory limit and GOGC the user set (--memory-limit, --gogc, their
// MONGOLOAD_* variables, GOMEMLIMIT, GOGC, the file), or sized from the
// step's workers, sessions and histograms (internal/mempolicy); a sweep's
// steps are sized each for its own level. It returns what it set, for
// the result, and the function that restores the process's own setting
// once the step is over. A sized limit follows the live heap while the
// step runs (mempolicy.Follow): stop the follower before the result is
// built, to record how far it raised the limit (recordRaise).
func applyMemoryPolicy(cfg *config.Config, plan *workload.Plan, o engine.Options) (*results.MemoryPolicy, *mempolicy.Follower, func()) {
	runners, states := engine.Footprint(o)
	hist := metrics.Histograms(len(plan.OpNames()), metrics.Options{Service: engine.Service(o)})
	var limit *int64
	var gogc *int
	if cfg.Run.MemoryLimit != "" {
		n, _ := mempolicy.ParseLimit(cfg.Run.MemoryLimit) // validated
		limit = &n
	}
	if cfg.Run.GOGC != "" {
		n, _ := mempolicy.ParseGOGC(cfg.Run.GOGC) // validated
		gogc = &n
	}
	p := mempolicy.Size(mempolicy.Run{Workers: runners, Sessions: states, Histograms: hist}, limit, gogc)
	prev := p.Apply()
	m := &results.MemoryPolicy{Limit: mempolicy.LimitString(p.LimitBytes), GOGC: mempolicy.GOGCString(p.GCPercent),
		LimitFrom: from(p.LimitSized), GOGCFrom: from(p.GCSized)}
	if p.LimitBytes != mempolicy.Unlimited {
		m.LimitBytes = p.LimitBytes
	}
	f := mempolicy.Follow(p, followEvery)
	return m, f, func() { f.Stop(); prev.Apply() }
}

// followEvery is how often a sized limit is checked against the live heap.
const followEvery = 250 * time.Millisecond

// recordRaise stops f and records in m the highest limit it set, if any.
func recordRaise(m *results.MemoryPolicy, f *mempolicy.Follower) {
	if r := f.Stop(); r > 0 && m != nil {
		m.RaisedToBytes, m.RaisedTo = r, mempolicy.LimitString(r)
	}
}

func from(sized bool) string {
	if sized {
		return "sized"
	}
	return "set"
}
