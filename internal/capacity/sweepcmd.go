package capacity

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mongoload/mongoload/internal/analysis"
	"github.com/mongoload/mongoload/internal/capacity/usl"
	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/run"
)

// SweepParams are the load parameters a sweep can step.
var SweepParams = []string{"concurrency", "rate", "sessions"}

// DefaultCooldown is the pause between steps unless --cooldown says
// otherwise, so one step's backlog (checkpoints, eviction) settles before
// the next.
const DefaultCooldown = 15 * time.Second

// SweepRequest is a sweep as a command asks for it: the stepped parameter
// and its levels, each step's length, the calibration target and the
// analysis's rules.
type SweepRequest struct {
	Param         string
	Levels        []float64
	StepDuration  config.Duration
	CooldownGiven bool    // --cooldown (or its variable) was set: no default
	TargetCPU     float64 // --target-server-cpu as a share; 0: no calibration
	Options       analysis.SweepOptions
	Version       string
}

// SweepLevels finds the one stepped parameter and its levels, from the
// flags or else the environment. A level that is not a number in range is
// an invalid value (a config error, exit 12); naming no parameter or two
// is a usage error (of Kind run.Usage, exit 2).
func SweepLevels(src config.Sources) (string, []float64, error) {
	var param, text, from string
	for _, p := range SweepParams {
		v, where, given := src.Value(p) // the flag's values, joined, else its variable
		if !given || v == "" {
			continue
		}
		if param != "" {
			return "", nil, runFail(run.Usage, fmt.Errorf("give one of --concurrency, --rate or --sessions as the swept parameter, not both %s and %s", from, where))
		}
		param, text, from = p, v, where
	}
	if param == "" {
		return "", nil, runFail(run.Usage, errors.New("say what to sweep: --concurrency 4,8,16,32 (workers), --rate 1000,2000,4000 (open loop) or --sessions 100,1000 (think-time sessions)"))
	}
	out, err := config.ParseLevels(config.Source{Name: from}, param, text)
	return param, out, err
}

// Prepare sets cfg up as the sweep's base configuration (the step length,
// the default cooldown, seeding's parallelism at the highest level) and
// checks every step's configuration before anything runs.
func (r SweepRequest) Prepare(cfg *config.Config) error {
	if len(cfg.Run.Stages) > 0 {
		return runFail(run.Usage, errors.New("a sweep sets the load of each step itself: remove the workload's run.stages"))
	}
	cfg.Run.Duration = r.StepDuration
	if cfg.Run.Cooldown == 0 && !r.CooldownGiven {
		cfg.Run.Cooldown = config.Duration(DefaultCooldown)
	}
	for _, lv := range r.Levels {
		if es := StepConfig(cfg, r.Param, lv).Validate(); len(es) > 0 {
			return es
		}
	}
	if r.Param == "concurrency" {
		cfg.Run.Concurrency = int(r.Levels[len(r.Levels)-1]) // seeding's parallelism follows it
	}
	return nil
}

// First is the first step's configuration: its load model says whether
// the session tracks sends.
func (r SweepRequest) First(cfg *config.Config) *config.Config {
	return StepConfig(cfg, r.Param, r.Levels[0])
}

// Run measures the sweep through st, calibrates to TargetCPU from its
// steps when asked, then analyses and assesses what was measured, however
// the sweep ended. The error is the sweep's own (of a run.Kind), else an
// *AnalysisError.
func (r SweepRequest) Run(ctx context.Context, cfg *config.Config, st *Stepper) (*results.Sweep, error) {
	if r.TargetCPU > 0 {
		RequireServerCPU(st)
	}
	sw, err := Sweep(ctx, cfg, st, r.Param, r.Levels, r.Version)
	if err == nil && r.TargetCPU > 0 {
		seed := map[float64]*results.Result{}
		for _, s := range sw.Steps {
			if s.Complete {
				seed[s.Level] = s.Result
			}
		}
		sw.Calibration, err = CalibrateSteps(ctx, st, r.Param, r.TargetCPU, seed)
	}
	if sw == nil {
		return nil, err
	}
	a, aerr := analysis.AnalyseSweep(sw, r.Options)
	if aerr != nil {
		return sw, errors.Join(err, &AnalysisError{What: "sweep", Err: aerr})
	}
	sw.Analysis = a
	if a.Limit.Kind != analysis.ErrorsLimitKind { // every operation failed: no throughput to fit, the summary says so
		sw.USL = usl.FitSweep(sw)
	}
	AssessSweep(sw)
	return sw, err
}

// AnalysisError: what was measured could not be analysed (a bug: the
// options were validated before anything ran).
type AnalysisError struct {
	What string // sweep, findmax
	Err  error
}

func (e *AnalysisError) Error() string { return fmt.Sprintf("%s analysis: %v", e.What, e.Err) }
func (e *AnalysisError) Unwrap() error { return e.Err }
