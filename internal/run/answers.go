package run

import (
	"context"
	"fmt"
	"time"

	"github.com/mongoload/mongoload/internal/capacity"
	"github.com/mongoload/mongoload/internal/engine"
)

// Answers says whether the server answers now: a hello within the time a
// run gives a silent server before it is lost (server selection plus 2 s,
// at least 5 s). It tells a server that paused and came back from one that
// is gone. --target noop always answers.
func (s *Session) Answers(ctx context.Context) error {
	if s.client == nil {
		return nil
	}
	wait := lostAfter(s.cfg)
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	for {
		_, err := s.client.Hello(ctx)
		if err == nil {
			return nil
		}
		// A pool cleared by the failures of the pause fails at once: ask
		// again until the time is up, not once.
		select {
		case <-ctx.Done():
			return fmt.Errorf("no answer to a hello within %s: %w", wait, err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// stalled checks a step in which the server may have stopped answering
// (capacity.Stall, or a run the engine ended as server-lost or with
// operations abandoned in flight): nil when it did not; a *capacity.Paused
// when the server answers again, so the step measured a pause and is run
// again; otherwise an error of Kind ServerLost naming the step (what).
func (s *Stepper) stalled(ctx context.Context, step *Result, what string) error {
	why, _, found := capacity.Stall(step.Result)
	switch {
	case found:
	case step.Outcome == engine.ServerLost || step.Outcome == engine.DurationReached:
		why = step.Reason
		if why == "" {
			why = "operations were abandoned in flight at its end"
		}
	default:
		return nil
	}
	if s.Answers == nil {
		return nil
	}
	fmt.Fprintf(s.Log, "  %s: the server stopped answering (%s); asking whether it answers again (up to %s)\n", what, why, lostAfter(s.Cfg))
	if err := s.Answers(ctx); err != nil {
		if ctx.Err() != nil {
			return fail(Interrupted, fmt.Errorf("interrupted while checking the server after %s", what))
		}
		return fail(ServerLost, fmt.Errorf("%s lost the server: %s, and it did not answer after it (%v); the probes before it are kept", what, why, err))
	}
	return &capacity.Paused{What: why + "; it answered again after the probe"}
}

// pauseRetries is how many times a sweep's step the server's pause
// interrupted is run again.
const pauseRetries = capacity.MaxPauseRetries
