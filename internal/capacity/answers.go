package capacity

import (
	"context"
	"fmt"

	"github.com/mongoload/mongoload/internal/engine"
	"github.com/mongoload/mongoload/internal/run"
)

// stalled checks a step in which the server may have stopped answering
// (Stall, or a run the engine ended as server-lost or with
// operations abandoned in flight): nil when it did not; a *Paused
// when the server answers again, so the step measured a pause and is run
// again; otherwise an error of Kind ServerLost naming the step (what).
func (s *Stepper) stalled(ctx context.Context, step *run.Result, what string) error {
	why, _, found := Stall(step.Result)
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
	fmt.Fprintf(s.Log, "  %s: the server stopped answering (%s); asking whether it answers again (up to %s)\n", what, why, run.LostAfter(s.Cfg))
	if err := s.Answers(ctx); err != nil {
		if ctx.Err() != nil {
			return runFail(run.Interrupted, fmt.Errorf("interrupted while checking the server after %s", what))
		}
		return runFail(run.ServerLost, fmt.Errorf("%s lost the server: %s, and it did not answer after it (%v); the probes before it are kept", what, why, err))
	}
	return &Paused{What: why + "; it answered again after the probe"}
}

// pauseRetries is how many times a sweep's step the server's pause
// interrupted is run again.
const pauseRetries = MaxPauseRetries

// runFail classifies err as a run's failure of kind k, for the command's
// exit code; nil stays nil.
func runFail(k run.Kind, err error) error {
	if err == nil {
		return nil
	}
	return &run.Error{Kind: k, Err: err}
}
