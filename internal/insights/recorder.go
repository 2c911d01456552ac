// Package insights finds what made operations slow: it groups the
// operations that reached a latency threshold by shape (the collection, the
// operation type and the filter with its values replaced by their types,
// internal/shape), keeps a small latency histogram per shape, and asks the
// server to explain the slowest shapes after the run.
//
// Only operations over the threshold pay for any of it: the engine hands
// them to a Recorder, which copies the filter and queues it for a goroutine
// of its own, never making a worker wait.
package insights

import (
	"cmp"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
	shapes "github.com/mongoload/mongoload/internal/shape"
	"github.com/mongoload/mongoload/internal/workload"
)

// DefaultMaxShapes bounds the shapes a Recorder keeps; further shapes'
// operations are counted under "other".
const DefaultMaxShapes = 100

// queueLen is how many slow operations may wait to be shaped; more are
// counted as dropped rather than making a worker wait.
const queueLen = 4096

// sampleMax is the most bytes of a sample kept in the results file.
const sampleMax = 1024

// Options tune a Recorder.
type Options struct {
	Threshold time.Duration
	MaxShapes int // 0: DefaultMaxShapes
}

// Recorder groups slow operations by shape. Observe may be called from any
// goroutine; Close once, then Result and Samples.
type Recorder struct {
	o       Options
	ch      chan slowOp
	done    chan struct{}
	closed  sync.Once
	total   atomic.Int64
	dropped atomic.Int64

	// Owned by the shaping goroutine until done is closed.
	shapes map[shapeKey]*shape
	other  *shape
}

// slowOp is what Observe copies out of a request before it is reused.
type slowOp struct {
	op      *workload.Op
	latency time.Duration
	failed  bool
	sample  Sample // the request, copied
}

type shapeKey struct {
	ns, typ, shape string
}

// shape is one shape's figures and its first sample.
type shape struct {
	key    shapeKey
	ops    []string
	count  int64
	errors int64
	hist   *hdrhistogram.Histogram
	sample Sample
}

// Sample is one operation of a shape as it was sent, for explain.
type Sample struct {
	Namespace string
	Type      string
	Kind      workload.Kind
	Shape     string
	Filter    bson.Raw // a filter, or an aggregate's pipeline (an array)
	Sort      bson.Raw
	Limit     int64
	// Update is an update's document, or a replaceOne's replacement;
	// Upsert its upsert flag.
	Update bson.Raw
	Upsert bool
}

// SampleOf copies what explain needs of one built request of op (which
// the caller may reuse as soon as it returns).
func SampleOf(op *workload.Op, r *workload.Request) Sample {
	s := Sample{Type: op.Type, Kind: op.Kind, Limit: op.Limit, Upsert: op.Upsert}
	if op.Collection != nil {
		s.Namespace = op.Collection.Namespace()
	}
	if op.LimitGen != nil {
		s.Limit = r.Limit
	}
	switch op.Kind {
	case workload.Aggregate:
		s.Filter = slices.Clone(r.Pipeline)
	case workload.Transaction:
	case workload.ReplaceOne:
		s.Filter, s.Sort = slices.Clone(r.Filter), slices.Clone(r.Sort)
		if len(r.Docs) > 0 {
			s.Update = slices.Clone(r.Docs[0])
		}
	default:
		s.Filter, s.Sort, s.Update = slices.Clone(r.Filter), slices.Clone(r.Sort), slices.Clone(r.Update)
	}
	return s
}

// NewRecorder starts a recorder's shaping goroutine; Close ends it.
func NewRecorder(o Options) *Recorder {
	if o.MaxShapes <= 0 {
		o.MaxShapes = DefaultMaxShapes
	}
	r := &Recorder{o: o, ch: make(chan slowOp, queueLen), done: make(chan struct{}), shapes: map[shapeKey]*shape{}}
	go r.run()
	return r
}

// Threshold is the latency from which an operation is slow.
func (r *Recorder) Threshold() time.Duration { return r.o.Threshold }

// Observe takes one operation that reached the threshold. It copies what
// it keeps from req (which the caller reuses as soon as it returns) and
// never waits: with the queue full, the operation is counted as dropped.
func (r *Recorder) Observe(op *workload.Op, latency time.Duration, req *workload.Request, err error) {
	r.total.Add(1)
	s := slowOp{op: op, latency: latency, failed: err != nil, sample: SampleOf(op, req)}
	select {
	case r.ch <- s:
	default:
		r.dropped.Add(1)
	}
}

// Close shapes what is queued and stops the goroutine.
func (r *Recorder) Close() {
	r.closed.Do(func() { close(r.ch) })
	<-r.done
}

func (r *Recorder) run() {
	defer close(r.done)
	for s := range r.ch {
		r.add(s)
	}
}

func (r *Recorder) add(s slowOp) {
	k := shapeKey{typ: s.op.Type}
	if s.op.Collection != nil {
		k.ns = s.op.Collection.Namespace()
	}
	switch s.op.Kind {
	case workload.Aggregate:
		k.shape = shapes.PipelineShape(s.sample.Filter)
	case workload.Transaction:
		k.typ, k.shape = "transaction", "("+s.op.Name+": its steps together)"
	default:
		k.shape = shapes.FilterShape(s.sample.Filter)
	}
	sh := r.shapes[k]
	if sh == nil {
		if len(r.shapes) >= r.o.MaxShapes {
			if r.other == nil {
				r.other = newShape(shapeKey{shape: "(other shapes)"})
			}
			sh = r.other
		} else {
			sh = newShape(k)
			sh.sample = s.sample
			sh.sample.Namespace, sh.sample.Shape = k.ns, k.shape
			r.shapes[k] = sh
		}
	}
	if !slices.Contains(sh.ops, s.op.Name) {
		sh.ops = append(sh.ops, s.op.Name)
	}
	if s.failed {
		sh.errors++
		return
	}
	sh.count++
	_ = sh.hist.RecordValue(metrics.Micros(s.latency))
}

// newShape makes a shape with its small histogram: 1 µs to 1 h at 2
// significant digits, about 26 KB, so that 100 shapes cost under 3 MB.
func newShape(k shapeKey) *shape {
	return &shape{key: k, hist: hdrhistogram.New(metrics.LowestMicros, metrics.HighestMicros, 2)}
}

// Result is the slow section of a result, shapes slowest first (p99, then
// count). Call it after Close.
func (r *Recorder) Result() *results.Slow {
	out := &results.Slow{
		ThresholdMs: float64(r.o.Threshold.Microseconds()) / 1000, MaxShapes: r.o.MaxShapes,
		Operations: r.total.Load(), Dropped: r.dropped.Load(), Shapes: []results.SlowShape{},
	}
	for _, sh := range r.ordered() {
		out.Shapes = append(out.Shapes, sh.report())
	}
	if r.other != nil {
		o := r.other.report()
		out.Other = &o
	}
	return out
}

// ordered is the shapes slowest first.
func (r *Recorder) ordered() []*shape {
	list := make([]*shape, 0, len(r.shapes))
	for _, sh := range r.shapes {
		list = append(list, sh)
	}
	slices.SortFunc(list, func(a, b *shape) int {
		return cmp.Or(
			cmp.Compare(b.hist.ValueAtQuantile(99), a.hist.ValueAtQuantile(99)),
			cmp.Compare(b.count+b.errors, a.count+a.errors),
			cmp.Compare(a.key.ns+a.key.typ+a.key.shape, b.key.ns+b.key.typ+b.key.shape))
	})
	return list
}

func (sh *shape) report() results.SlowShape {
	out := results.SlowShape{
		Namespace: sh.key.ns, Type: sh.key.typ, Ops: sh.ops, Shape: sh.key.shape,
		Count: sh.count, Errors: sh.errors, Latency: results.LatencyOf(sh.hist),
	}
	if sh.count > 0 {
		out.Histogram, _ = metrics.EncodeHistogram(sh.hist)
	}
	if len(sh.sample.Filter) > 0 {
		out.Sample = sampleText(sh.sample)
	}
	return out
}

// sampleText is the sample in relaxed extended JSON, cut at sampleMax.
func sampleText(s Sample) string {
	var txt string
	if s.Kind == workload.Aggregate {
		txt = bson.RawArray(s.Filter).String()
	} else {
		txt = s.Filter.String()
	}
	if len(txt) > sampleMax {
		txt = txt[:sampleMax] + "..."
	}
	return txt
}

// Samples returns the samples of the n slowest shapes that can be
// explained (those with a filter or a pipeline), in Result's order. Call
// it after Close.
func (r *Recorder) Samples(n int) []Sample {
	var out []Sample
	planned := 0 // an insert says why it has no plan, and leaves its place to a shape with one
	for _, sh := range r.ordered() {
		if planned == n {
			break
		}
		if sh.sample.Kind == workload.Transaction || sh.sample.Filter == nil || sh.count == 0 {
			continue
		}
		out = append(out, sh.sample)
		if notExplained(sh.sample.Kind) == "" {
			planned++
		}
	}
	return out
}
