package engine

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/mongoload/mongoload/internal/engine/enginetest"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/workload"
)

// TestDocsRecorded: what the executor says the server did with documents
// reaches the totals for exactly the measured, successful operations: the
// oracle is the executor's own count of what it returned.
func TestDocsRecorded(t *testing.T) {
	var calls, fails atomic.Int64
	ex := enginetest.Docs(func(ctx context.Context, _ *workload.Request) (metrics.Docs, error) {
		n := calls.Add(1)
		if n%5 == 0 { // a failure carries no document counts
			fails.Add(1)
			return metrics.Docs{Returned: 100}, errors.New("boom")
		}
		if n%2 == 0 {
			return metrics.Docs{Shaped: 1, Empty: 1}, nil
		}
		return metrics.Docs{Returned: 3, Shaped: 1}, nil
	})
	res, _ := runWith(t, context.Background(), ex, Options{Concurrency: 1, Operations: 1000})
	var d metrics.Docs
	var ok int64
	for i := range res.Totals.Len() {
		d.Add(res.Totals.Op(i).Docs)
		ok += res.Totals.Op(i).Count()
	}
	// One worker, calls 1..1000: successes are n%5 != 0; of those, odd n
	// returned 3 documents and even n returned none.
	var wantRet, wantEmpty int64
	for n := int64(1); n <= 1000; n++ {
		switch {
		case n%5 == 0:
		case n%2 == 0:
			wantEmpty++
		default:
			wantRet += 3
		}
	}
	if ok != 800 || d.Returned != wantRet || d.Empty != wantEmpty || d.Shaped != 800 {
		t.Fatalf("ok %d, docs %+v; want 800 ok, returned %d, empty %d, shaped 800", ok, d, wantRet, wantEmpty)
	}
}

// TestNoWarmupMeasuresEveryOperation: without a warm-up, every operation
// sent is measured: none runs before the measured phase starts, unrecorded
// (the oracle is the executor's own count of calls, and what the server
// would hold: every call's documents).
func TestNoWarmupMeasuresEveryOperation(t *testing.T) {
	for range 5 {
		var calls atomic.Int64
		ex := enginetest.Docs(func(ctx context.Context, _ *workload.Request) (metrics.Docs, error) {
			calls.Add(1)
			return metrics.Docs{Inserted: 1}, nil
		})
		res, _ := runWith(t, context.Background(), ex, Options{Concurrency: 8, Operations: 500})
		var d metrics.Docs
		for i := range res.Totals.Len() {
			d.Add(res.Totals.Op(i).Docs)
		}
		if ops, _ := total(res); ops != 500 || calls.Load() != 500 || d.Inserted != 500 {
			t.Fatalf("%d calls, %d measured, %d documents recorded; want 500 of each", calls.Load(), ops, d.Inserted)
		}
	}
}
