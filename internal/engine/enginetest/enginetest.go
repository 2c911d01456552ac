// Package enginetest holds the fake executors that drive the engine without
// a server: the engine's tests and benchmarks and the ceiling program
// (bench/ceiling) use these, not copies of their own. They check the
// engine's logic; the database path is tested against the real server.
//
// It imports neither the engine nor the driver, so the engine's own
// (in-package) tests can use it; each type implements engine.Executor.
package enginetest

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/workload"
)

// Fake answers after Delay (cut short when its context ends), with Err's
// error if Err returns one, else with one document found. It counts its
// calls and runs OnCall once, on the After-th call: triggers tied to
// progress, not to the clock.
type Fake struct {
	Delay  time.Duration
	Err    func() error
	After  int64
	OnCall func()
	Calls  atomic.Int64
}

// Do implements engine.Executor.
func (f *Fake) Do(ctx context.Context, _ *workload.Request) (workload.Reply, error) {
	if f.Calls.Add(1) == f.After && f.OnCall != nil {
		f.OnCall()
	}
	if f.Delay > 0 {
		select {
		case <-time.After(f.Delay):
		case <-ctx.Done():
			return workload.Reply{}, ctx.Err()
		}
	}
	if f.Err != nil {
		if err := f.Err(); err != nil {
			return workload.Reply{}, err
		}
	}
	return workload.Reply{Docs: metrics.Docs{Returned: 1, Shaped: 1}}, nil
}

// Answer answers every operation at once with these documents and nothing
// else (no call count, no send time): benchmarks measure the client alone.
type Answer metrics.Docs

// Do implements engine.Executor.
func (a Answer) Do(context.Context, *workload.Request) (workload.Reply, error) {
	return workload.Reply{Docs: metrics.Docs(a)}, nil
}

// Func is an executor of a test's own making.
type Func func(ctx context.Context, r *workload.Request) (workload.Reply, error)

// Do implements engine.Executor.
func (f Func) Do(ctx context.Context, r *workload.Request) (workload.Reply, error) { return f(ctx, r) }

// Docs is an executor of a test's own making that replies only with
// documents: no send time, no failed commands.
type Docs func(ctx context.Context, r *workload.Request) (metrics.Docs, error)

// Do implements engine.Executor.
func (f Docs) Do(ctx context.Context, r *workload.Request) (workload.Reply, error) {
	d, err := f(ctx, r)
	return workload.Reply{Docs: d}, err
}
