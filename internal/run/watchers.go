package run

import (
	"context"
	"fmt"
	"io"

	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/watch"
	"github.com/mongoload/mongoload/internal/workload"
)

// checkWatchers refuses, before anything is written, a workload with
// watchers on a server that has no change streams (a standalone).
func (s *Session) checkWatchers(ctx context.Context) error {
	if len(s.plan.Watchers) == 0 || s.client == nil {
		return nil
	}
	if err := s.client.CheckChangeStreams(ctx); err != nil {
		return fail(Unsupported, err)
	}
	return nil
}

// openWatchers opens the watchers' streams before the warm-up, so that
// the measured phase's first writes are seen. Without a server (--target
// noop) there is nothing to watch.
func openWatchers(ctx context.Context, log io.Writer, plan *workload.Plan, client *mongodb.Client) (*watch.Set, error) {
	if len(plan.Watchers) == 0 {
		return nil, nil
	}
	if client == nil {
		fmt.Fprintln(log, "notice: --target noop: the watchers are not opened (there is no server to watch)")
		return nil, nil
	}
	set, err := watch.Open(ctx, plan.Watchers, func(ctx context.Context, w *workload.Watcher) (watch.Stream, error) {
		return client.OpenStream(ctx, w)
	})
	if err != nil {
		return nil, fail(ServerFailure, err)
	}
	fmt.Fprintf(log, "watching: %d change stream(s) of %d watcher(s) open\n", set.Streams(), len(plan.Watchers))
	return set, nil
}

// stopWatchers drains and closes the watchers after the measured phase
// and puts their figures in the result; a watcher that fell behind is
// said in the notes too, so that every report says it.
func (m *measurement) stopWatchers(post context.Context, result *results.Result) {
	if m.watch == nil {
		return
	}
	result.Watchers = m.watch.Stop(post, result.DurationSeconds)
	m.watch = nil
	for _, w := range result.Watchers {
		if w.Verdict != "" {
			result.Notes = append(result.Notes, fmt.Sprintf("watcher %s: %s", w.Name, w.Verdict))
		}
		if w.Lag.Negative > 0 {
			result.Notes = append(result.Notes, fmt.Sprintf("watcher %s: %d event(s) arrived before their commit time by this host's clock (recorded as 0 lag): the client's and the server's clocks differ", w.Name, w.Lag.Negative))
		}
	}
}
