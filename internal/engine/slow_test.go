package engine

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/engine/enginetest"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/workload"
)

// slowExec makes every fourth call slow.
type slowExec struct {
	mu sync.Mutex
	n  int
}

func (s *slowExec) answer(ctx context.Context, _ *workload.Request) (metrics.Docs, error) {
	s.mu.Lock()
	s.n++
	slow := s.n%4 == 0
	s.mu.Unlock()
	if slow {
		time.Sleep(20 * time.Millisecond)
	}
	return metrics.Docs{Returned: 1, Shaped: 1}, nil
}

// TestOnSlow: only measured operations at or over the threshold reach the
// hook, with their request still built; faster ones and the warm-up's never.
func TestOnSlow(t *testing.T) {
	var mu sync.Mutex
	var calls, withFilter, tooFast int
	o := Options{Concurrency: 2, Warmup: 100 * time.Millisecond, Duration: 300 * time.Millisecond, SlowThreshold: 15 * time.Millisecond}
	var measuring bool
	o.OnMeasure = func() { mu.Lock(); measuring = true; mu.Unlock() }
	o.OnSlow = func(op *workload.Op, lat time.Duration, req *workload.Request, err error) {
		mu.Lock()
		defer mu.Unlock()
		if !measuring {
			t.Error("a warm-up operation reached the hook")
		}
		calls++
		if lat < 15*time.Millisecond {
			tooFast++
		}
		if req.Op == op && (op.Kind != workload.FindOne || len(req.Filter) > 0) {
			withFilter++
		}
	}
	res, _ := runWith(t, context.Background(), enginetest.Docs((&slowExec{}).answer), o)
	ops, _ := total(res)
	mu.Lock()
	defer mu.Unlock()
	if calls == 0 || calls > int(ops)/3 || tooFast > 0 || withFilter != calls {
		t.Errorf("%d hook calls for %d operations (every fourth is slow), %d too fast, %d with their request built", calls, ops, tooFast, withFilter)
	}
}
