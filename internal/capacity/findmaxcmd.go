package capacity

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mongoload/mongoload/internal/analysis"
	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/run"
)

// Defaults of findmax's probes: long enough for a p99 of a few thousand
// operations, short enough for a dozen probes.
const (
	FindMaxStep   = 30 * time.Second
	FindMaxWarmup = 5 * time.Second
)

// FindMaxRequest is a rate search as a command asks for it.
type FindMaxRequest struct {
	Policy        Policy          // Start 0: estimated from a closed-loop run
	AchievedShare float64         // a probe fails unless it achieved this share of its rate
	StepDuration  config.Duration // each probe's measured length
	WarmupGiven   bool            // --warmup (or its variable) was set: no default
	TargetCPU     float64         // --target-server-cpu as a share; 0: no calibration
	Options       analysis.SweepOptions
	Version       string
	objectives    []analysis.Objective
}

// Validate checks the policy and the options together (each number was
// checked in its range already); a Start of 0 is estimated later.
func (r *FindMaxRequest) Validate() error {
	pol := r.Policy
	if pol.Start == 0 {
		pol.Start = 1
	}
	var es config.Errors
	es.Add(r.Options.Validate())
	es.Add(pol.Validate())
	return es.Err()
}

// Prepare sets cfg up as the search's base configuration and checks it:
// the service level is required, the probes' length and warmup set, the
// probes' configuration valid.
func (r *FindMaxRequest) Prepare(cfg *config.Config) error {
	if cfg.Run.SLO == "" {
		return runFail(run.Usage, fmt.Errorf(`findmax needs the service level to search against: --slo "p99<=20ms" (or %s)`, config.EnvName("slo")))
	}
	objectives, err := analysis.ParseObjectives(cfg.Run.SLO)
	if err != nil {
		return cfg.Refuse("run.slo", err)
	}
	r.objectives = objectives
	if len(cfg.Run.Stages) > 0 {
		return runFail(run.Usage, errors.New("findmax sets the rate of each probe itself: remove the workload's run.stages"))
	}
	cfg.Run.Duration = r.StepDuration
	cfg.Run.Quiet = true // each probe's live lines would bury the probe table: one line per probe instead
	if !r.WarmupGiven {
		cfg.Run.Warmup = config.Duration(FindMaxWarmup)
	}
	if es := r.First(cfg).Validate(); len(es) > 0 {
		return es
	}
	return nil
}

// First is a probe's configuration: an open loop.
func (r *FindMaxRequest) First(cfg *config.Config) *config.Config {
	return StepConfig(cfg, "rate", 1)
}

// Run searches through st (after Prepare), calibrates to TargetCPU from
// its probes when asked, and concludes what was measured however the
// search ended. The error is the search's own (of a run.Kind), else an
// *AnalysisError.
func (r *FindMaxRequest) Run(ctx context.Context, cfg *config.Config, st *Stepper) (*results.FindMax, error) {
	if r.TargetCPU > 0 {
		RequireServerCPU(st)
	}
	start := r.Policy.Start
	pol := r.Policy
	if start == 0 {
		pol.Start = 1 // replaced by the estimate's
	}
	f := &results.FindMax{
		FileHead: run.FileHead(cfg, "", r.Version), SLO: ObjectiveTexts(r.objectives), AchievedShare: r.AchievedShare,
		Start: start, StartFrom: "--start", Factor: pol.Factor, Precision: pol.Precision,
		StepSpan: run.StepSpan(cfg, r.StepDuration.D()), Probes: []results.Probe{},
	}
	err := FindMax(ctx, cfg, st, f, pol, r.objectives)
	if err == nil && r.TargetCPU > 0 {
		seed := map[float64]*results.Result{}
		for _, p := range f.Probes { // the last probe at a rate stands for it
			seed[p.Rate] = p.Result
		}
		if f.Calibration, err = CalibrateSteps(ctx, st, "rate", r.TargetCPU, seed); err != nil {
			err = StopFindMax(f, err)
		}
	}
	f.EndedAt = time.Now()
	if cerr := Conclude(f, r.Options); cerr != nil {
		return f, errors.Join(err, &AnalysisError{What: "findmax", Err: cerr})
	}
	return f, err
}
