package metrics

import (
	"runtime"
	"sync"
	"time"
)

// MaxDefaultShards caps the default shard count.
const MaxDefaultShards = 16

// Options tunes a Recorder.
type Options struct {
	// Shards is the number of shards workers share; 0 means GOMAXPROCS (only
	// that many workers record at the same instant), at most MaxDefaultShards, so a many-core machine does not pay hundreds
	// of megabytes of histograms for contention it would not see.
	// Memory is about Shards × ops × 190 KB (×2 with Service), plus one
	// histogram per operation for each interval in flight to the sinks.
	Shards int
	// Service also keeps a service-time histogram per operation, for
	// open-loop runs where latency is measured from the scheduled start.
	Service bool
	// Parents is indexed like the operations: the name of the operation
	// each one is a part of (a transaction's step), "" for the mix's own
	// operations. Every interval and total carries it on (see InMix).
	Parents []string
}

// Recorder collects the latencies and errors of a fixed list of operations
// from any number of workers, and cuts them into intervals.
type Recorder struct {
	ops     []string
	parents []string // indexed like ops; "" for the mix's operations
	service bool
	shards  []*Shard

	mu    sync.Mutex // serializes Interval and Reset; never taken by recording
	start time.Time  // start of the interval being recorded
	load  loadCounters
	pool  histPool // released intervals' histograms
}

// NewRecorder returns a Recorder for the operations named ops; operation i
// is recorded as index i. The first interval starts now.
func NewRecorder(ops []string, opt Options) *Recorder {
	n := opt.shards()
	r := &Recorder{
		ops:     append([]string(nil), ops...),
		parents: make([]string, len(ops)),
		service: opt.Service,
		shards:  make([]*Shard, n),
		start:   time.Now(),
	}
	copy(r.parents, opt.Parents)
	// Enough for the interval being cut and two in flight to the sinks;
	// intervals a slow sink holds longer are left to the garbage collector.
	r.pool.max = opt.perOp(3) * len(ops)
	for i := range r.shards {
		r.shards[i] = &Shard{cur: newSet(len(ops), opt.Service)}
	}
	return r
}

func (opt Options) shards() int {
	if opt.Shards > 0 {
		return opt.Shards
	}
	return min(runtime.GOMAXPROCS(0), MaxDefaultShards)
}

// perOp is the histograms of n sets per operation: twice n with Service.
func (opt Options) perOp(n int) int {
	if opt.Service {
		return 2 * n
	}
	return n
}

// Histograms is how many histograms a Recorder for ops operations under opt
// and its run's totals hold at once: one per shard, three in the pool (the
// interval being cut, two in flight to the sinks) and the totals', per
// operation. The memory policy is sized from it (internal/mempolicy).
func Histograms(ops int, opt Options) int {
	return opt.perOp(opt.shards()+3+1) * ops
}

// Ops returns the operation names, indexed as they are recorded.
func (r *Recorder) Ops() []string { return append([]string(nil), r.ops...) }

// Parents returns each operation's parent ("" for the mix's operations),
// indexed like Ops.
func (r *Recorder) Parents() []string { return append([]string(nil), r.parents...) }

// NewTotals returns empty totals for the recorder's operations, parents and
// service histograms included.
func (r *Recorder) NewTotals() *Totals {
	t := NewTotals(r.ops, r.service)
	for i := range t.ops {
		t.ops[i].Parent = r.parents[i]
	}
	return t
}

// Shards returns the number of shards.
func (r *Recorder) Shards() int { return len(r.shards) }

// Shard returns the shard worker should record into: shard worker mod the
// number of shards. Call it once per worker and keep the result; consecutive
// workers get different shards, so contention stays rare.
func (r *Recorder) Shard(worker int) *Shard {
	n := len(r.shards)
	return r.shards[((worker%n)+n)%n]
}

// Interval returns everything recorded since the previous call to Interval
// or Reset (or since NewRecorder), as an interval ending at now. Take now
// just before calling: a sample recorded during the call lands in this
// interval or the next, never in both and never in neither. The returned
// Interval is never modified again; the caller holds it, and may Release
// it (after Retain for every other holder) so its histograms are reused.
func (r *Recorder) Interval(now time.Time) *Interval {
	r.mu.Lock()
	defer r.mu.Unlock()
	iv := r.newInterval(now)
	iv.Load = r.takeLoad()
	// Each shard's histogram of an operation is added to the interval and
	// emptied under that shard's lock, one operation at a time: a sample
	// lands in exactly one interval, no spare set doubles the shards'
	// memory, and a recorder waits at most one merge (~0.1 ms) once per
	// interval.
	for _, s := range r.shards {
		for i := range iv.Ops {
			s.drainOp(i, &iv.Ops[i])
		}
	}
	r.start = now
	return iv
}

// Reset discards everything recorded so far, for example at the end of the
// warm-up; the next interval starts at now.
func (r *Recorder) Reset(now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.shards {
		s.mu.Lock()
		s.cur.reset()
		s.mu.Unlock()
	}
	r.takeLoad()
	r.start = now
}

func (r *Recorder) newInterval(end time.Time) *Interval {
	iv := &Interval{Start: r.start, End: end, Ops: make([]OpInterval, len(r.ops)), pool: &r.pool}
	iv.refs.Store(1)
	for i, name := range r.ops {
		o := &iv.Ops[i]
		o.Name, o.Parent = name, r.parents[i]
		o.Latency = r.pool.get(r.start, end)
		if r.service {
			o.Service = r.pool.get(r.start, end)
		}
	}
	return iv
}
