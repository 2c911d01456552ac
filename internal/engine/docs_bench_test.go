package engine

import (
	"context"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/engine/enginetest"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/testserver"
	"github.com/mongoload/mongoload/internal/workload/workloadtest"
)

// execLoop is one worker's measured loop over a find-only plan, the way the
// closed loop runs it, without the goroutines.
func execLoop(tb testing.TB) func() {
	_, p := workloadtest.Compile(tb, []byte(`
collections:
  - {database: d, name: c, template: {k: {$gen: key}}}
operations:
  - {name: a, type: findOne, collection: c, weight: 1, filter: {k: {$gen: key}}}
`), "t.yaml")
	p.Collections[0].Keys.Reset(0, 1000)
	rec := metrics.NewRecorder(p.OpNames(), metrics.Options{Shards: 1})
	r := newRun(context.Background(), p, []Executor{enginetest.Answer{Returned: 2, Shaped: 1}}, rec, nil, Options{Concurrency: 1, Interval: time.Hour})
	r.measuring.Store(true)
	w, shard := r.newWorker(0), rec.Shard(0)
	return func() { r.step(w, shard, time.Time{}) }
}

// BenchmarkExecWithDocs is the engine's per-operation path with the
// executor's document counts recorded: it must report 0 allocs/op.
func BenchmarkExecWithDocs(b *testing.B) {
	op := execLoop(b)
	b.ReportAllocs()
	for b.Loop() {
		op()
	}
}

// TestExecWithDocsAllocatesNothing holds the benchmark's claim: counting
// documents adds no allocation per operation.
func TestExecWithDocsAllocatesNothing(t *testing.T) {
	if testserver.Race {
		t.Skip("the race detector allocates")
	}
	op := execLoop(t)
	op() // the first operation grows the request's buffer
	if n := testing.AllocsPerRun(1000, op); n != 0 {
		t.Fatalf("%.1f allocations per operation", n)
	}
}
