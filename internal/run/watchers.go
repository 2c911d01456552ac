package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/mongoload/mongoload/internal/engine"
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
	if err := s.client.CheckChangeStreams(ctx, s.plan, s.cfg.Run.Drop); err != nil {
		if errors.Is(err, mongodb.ErrUnsupported) {
			return fail(Unsupported, err)
		}
		return fail(ServerFailure, err)
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
	// A stream that fails for good is said at once (the run goes on, and
	// fails at its end: watchErr), not resumed in a loop.
	onFail := func(err error) { fmt.Fprintln(log, "error: "+err.Error()) }
	set, err := watch.Open(ctx, plan.Watchers, func(ctx context.Context, w *workload.Watcher) (watch.Stream, error) {
		return client.OpenStream(ctx, w)
	}, onFail)
	if err != nil {
		return nil, fail(ServerFailure, err)
	}
	fmt.Fprintf(log, "watching: %d change stream(s) of %d watcher(s) open\n", set.Streams(), len(plan.Watchers))
	return set, nil
}

// stopWatchers drains and closes the watchers after the measured phase
// and puts their figures in the result; a watcher that fell behind or
// failed is said in the notes too, so that every report says it. The
// drain ends at the post-run bound, or at once at an interrupt (the run's
// ctx): it says whether it was cut short.
func (m *measurement) stopWatchers(post context.Context, result *results.Result) (cut bool) {
	if m.watch == nil {
		return false
	}
	drain, cancel := context.WithCancel(post)
	defer cancel()
	defer context.AfterFunc(m.ctx, cancel)()
	result.Watchers, cut = m.watch.Stop(drain, result.DurationSeconds)
	m.watch = nil
	if cut {
		result.Notes = append(result.Notes, "watchers: the wait for their streams to deliver the run's last writes was cut short: their events lack what had not arrived")
	}
	var failed []string
	for _, w := range result.Watchers {
		if w.Failed != "" {
			result.Notes = append(result.Notes, w.Failed)
			failed = append(failed, w.Name)
		}
		if w.Verdict != "" {
			result.Notes = append(result.Notes, fmt.Sprintf("watcher %s: %s", w.Name, w.Verdict))
		}
		if w.Lag.Negative > 0 {
			result.Notes = append(result.Notes, fmt.Sprintf("watcher %s: %d event(s) arrived before their commit time by this host's clock (recorded as 0 lag): the client's and the server's clocks differ", w.Name, w.Lag.Negative))
		}
	}
	if len(failed) > 0 { // the error itself was said when it came, and is in the notes
		m.watchErr = fmt.Errorf("watcher %s: its change stream failed during the run (the error is above and in the results' notes)", strings.Join(failed, ", "))
	}
	return cut
}

// interruptedDraining makes a run that ended its measured phase but was
// interrupted while its watchers drained an interrupted run: Ctrl-C is
// an interrupt wherever it comes, and what was collected is written as
// such.
func interruptedDraining(ran *engine.Result, result *results.Result) {
	ran.Outcome, ran.Reason = engine.Interrupted, engine.ReasonSignal+", while the watchers drained"
	result.Outcome, result.Reason = results.Interrupted, ran.Reason
}
