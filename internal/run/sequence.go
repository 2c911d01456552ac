package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/engine"
)

// A sweep, a battery and a rate search are sequences of runs on one
// Session; what they share is here, and each adds only its own decision.

// Step is the configuration of run i of a sequence: a copy of cfg with
// its own operation seed, so that a run does not replay the last one's
// writes (which the server would skip as no-ops), and without --start-at
// after the first run, which waited for it.
func Step(cfg *config.Config, i int) *config.Config {
	c := *cfg
	c.Run.OperationSeed = config.StepSeed(cfg.Run.OperationSeed, i)
	if i > 0 {
		c.Run.StartAt = ""
	}
	return &c
}

// ErrCooldown: the cooldown before a step was interrupted (of Kind
// run.Interrupted).
var ErrCooldown = errors.New("interrupted during the cooldown")

// Cooldown pauses between two runs of a sequence, so one run's backlog
// (checkpoints, eviction) settles before the next, and says so on log.
// It returns an Interrupted error if ctx ends first.
func Cooldown(ctx context.Context, log io.Writer, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	fmt.Fprintf(log, "cooldown %s\n", config.Duration(d))
	select {
	case <-time.After(d):
		return nil
	case <-ctx.Done():
		return fail(Interrupted, ErrCooldown)
	}
}

// Stopped is the error of a sequence that a run's outcome ended early:
// Interrupted, or ServerLost.
func Stopped(outcome engine.Outcome, err error) error {
	if outcome == engine.ServerLost {
		return fail(ServerLost, err)
	}
	return fail(Interrupted, err)
}
