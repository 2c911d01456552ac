package capacity

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/run"
	"github.com/mongoload/mongoload/internal/sink"
)

// Stepper measures the steps of a command that runs several on one
// session (a sweep's levels, a rate search's probes, a calibration's
// points): each step its own load (StepConfig), operation seed and HDR log
// (run.Step), the cooldown before all but the first. It is the one loop body
// such commands share; each adds only its own decision.
type Stepper struct {
	Cfg     *config.Config // the command's configuration, each step's base
	Measure Measure        // one step: Session.Run with the command's sinks
	Log     io.Writer      // the announcements and cooldowns
	// Check, if set, fails a step whose result the command cannot use
	// (one without the server's CPU, for a calibration).
	Check func(*results.Result) error
	// Answers, if set, says whether the server answers now (Session.Answers):
	// a step in which it stopped answering is then a pause (run again) or
	// a lost server.
	Answers func(context.Context) error
	n       int // steps measured so far
}

// Step runs the next step with param at level, after the cooldown and the
// line announcing it on Log. The error is run.ErrCooldown's, or the step's when
// it could not run at all; otherwise the run.Result's Result is the step's
// full one (with its interval series and the cost), straight from the run.
func (s *Stepper) Step(ctx context.Context, param string, level float64, announce string) (*run.Result, error) {
	return s.StepFor(ctx, param, level, s.Cfg.Run.Duration.D(), announce)
}

// StepFor is Step with a measured phase of d instead of the command's
// step duration, reporting to sinks besides the command's.
func (s *Stepper) StepFor(ctx context.Context, param string, level float64, d time.Duration, announce string, sinks ...sink.Sink) (*run.Result, error) {
	i := s.n
	if i > 0 {
		if err := run.Cooldown(ctx, s.Log, s.Cfg.Run.Cooldown.D()); err != nil {
			return nil, err
		}
	}
	s.n++
	fmt.Fprintln(s.Log, announce)
	sc := StepConfig(run.Step(s.Cfg, i), param, level)
	sc.Run.Duration = config.Duration(d)
	sc.Run.Out = "" // the command's file holds every step's result
	if s.Cfg.Run.HdrLog != "" {
		sc.Run.HdrLog = stepPath(s.Cfg.Run.HdrLog, param, level)
	}
	r, err := s.Measure(ctx, sc, sinks...)
	if err != nil {
		return nil, err
	}
	if r.Result.Cost == nil {
		r.Result.Cost = run.CostOf(s.Cfg)
	}
	if s.Check != nil {
		if err := s.Check(r.Result); err != nil {
			return nil, err
		}
	}
	return r, nil
}
