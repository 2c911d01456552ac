package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/engine"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/workload"
)

// stepper measures the steps of a command that runs several on one
// prepared dataset and connection (a sweep's levels, a rate search's
// probes, a calibration's points): each step its own load, operation seed,
// temporary results file and HDR log, the cooldown before all but the
// first. It is the one loop body such commands share.
type stepper struct {
	o      IO        // each step's own report (stdout) is discarded
	log    io.Writer // the announcements and cooldowns
	cfg    *config.Config
	plan   *workload.Plan
	client *mongodb.Client
	out    output
	cool   time.Duration
	cost   *results.Cost // stamped on a step result that has none
	tmp    string
	n      int // steps measured so far
	// check, if set, fails a step whose result the command cannot use
	// (requireServerCPU).
	check func(*results.Result) error
}

// stepsTemp prefixes the temporary directory of the steps' results files:
// a recorded configuration must never name it.
const stepsTemp = "mongoload-steps-"

// prepareSteps connects, sets up and seeds once (connectPrepared; first
// is the first step's configuration, whose load model says whether sends
// are tracked) and makes the stepper over that connection, with its
// temporary directory and cfg's cooldown; close releases both.
func prepareSteps(ctx context.Context, o IO, cfg, first *config.Config, plan *workload.Plan, out output) (*stepper, error) {
	tmp, err := os.MkdirTemp("", stepsTemp)
	if err != nil {
		return nil, withCode(ExitOutput, fmt.Errorf("a temporary directory for the steps' results: %w", err))
	}
	client, err := connectPrepared(ctx, o, cfg, plan, engine.TracksSends(model(first), plan))
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	cool := cfg.Run.Cooldown.D()
	quiet := o
	quiet.Stdout = io.Discard
	return &stepper{o: quiet, log: o.Stderr, cfg: cfg, plan: plan, client: client, out: out, cool: cool, cost: costOf(cfg), tmp: tmp}, nil
}

func (s *stepper) close() {
	s.client.Close()
	os.RemoveAll(s.tmp)
}

// quiet discards the steps' own progress lines on stderr too (connection,
// warm-up, grace notices): a command printing one line per step of its own.
func (s *stepper) quiet() { s.o.Stderr = io.Discard }

// errCooldownInterrupted: the cooldown before a step was interrupted.
var errCooldownInterrupted = fmt.Errorf("interrupted during the cooldown")

// measure runs the next step with param at level, after the cooldown and
// the line announcing it on stderr. The
// error is errCooldownInterrupted, or the step's when it could not run at
// all; otherwise the step's result is its full one (with the interval
// series), its recorded configuration naming the command's --out file.
func (s *stepper) measure(ctx context.Context, param string, level float64, announce string) (*stepResult, *results.Result, error) {
	return s.measureFor(ctx, param, level, s.cfg.Run.Duration.D(), announce)
}

// measureFor is measure with a measured phase of d instead of the
// command's step duration.
func (s *stepper) measureFor(ctx context.Context, param string, level float64, d time.Duration, announce string) (*stepResult, *results.Result, error) {
	i := s.n
	if i > 0 && s.cool > 0 {
		fmt.Fprintf(s.log, "cooldown %s\n", config.Duration(s.cool))
		select {
		case <-time.After(s.cool):
		case <-ctx.Done():
			return nil, nil, errCooldownInterrupted
		}
	}
	s.n++
	fmt.Fprintln(s.log, announce)
	sc := stepConfig(s.cfg, param, level)
	sc.Run.Duration = config.Duration(d)
	sc.Run.OperationSeed = config.StepSeed(s.cfg.Run.OperationSeed, i) // a step must not replay the last one's writes
	sc.Run.Out = filepath.Join(s.tmp, fmt.Sprintf("step-%d.json", i+1))
	if s.cfg.Run.HdrLog != "" {
		sc.Run.HdrLog = stepPath(s.cfg.Run.HdrLog, param, level)
	}
	if i > 0 {
		sc.Run.StartAt = "" // the first step waited for it
	}
	step, err := measureStep(ctx, s.o, sc, s.plan, s.client, s.out)
	if err != nil {
		return nil, nil, err
	}
	res := stepResultOf(step, sc.Run.Out, s.cfg.Run.Out, s.cost)
	if s.check != nil {
		if err := s.check(res); err != nil {
			return nil, nil, err
		}
	}
	return step, res, nil
}
