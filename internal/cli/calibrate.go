package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/pflag"

	"github.com/mongoload/mongoload/internal/capacity"
	"github.com/mongoload/mongoload/internal/engine"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/run"
)

// addCalibrationFlag is --target-server-cpu, for sweep and findmax.
func addCalibrationFlag(fs *pflag.FlagSet) *string {
	return fs.String("target-server-cpu", "", "also find the load at which the server's CPU sits at this share of its cores, such as 80%, and record it")
}

// calibrationTarget reads --target-server-cpu; 0 when not given.
func calibrationTarget(s string) (float64, error) {
	if s == "" {
		return 0, nil
	}
	v, err := parseShare("target-server-cpu", s)
	if err != nil {
		return 0, withCode(ExitUsage, err)
	}
	return v, nil
}

// requireServerCPU makes every step of st fail at once, with
// ExitNoServerCPU and what is missing, when the server's CPU cannot be
// measured: a calibration would otherwise run the whole sweep or search
// first.
func requireServerCPU(st *run.Stepper) {
	st.Check = func(res *results.Result) error {
		if _, _, _, err := capacity.ServerCPU(res); err != nil {
			return withCode(ExitNoServerCPU, fmt.Errorf("--target-server-cpu: %w", err))
		}
		return nil
	}
}

// calibrate finds the level of param at which the server's CPU sits at
// target, from the results measured already and more steps through st.
func calibrate(ctx context.Context, st *run.Stepper, param string, target float64, seed map[float64]*results.Result) (*results.Calibration, error) {
	unit := results.SweepLoad{Parameter: param}
	pol := capacity.DefaultCalibration(target, param != "rate")
	c, err := capacity.Calibrate(ctx, pol, param, seed, func(ctx context.Context, level float64) (*results.Result, error) {
		step, err := st.Step(ctx, param, level, fmt.Sprintf("calibration: %s for %s", unit.Describe(level), st.Cfg.Run.Duration))
		switch {
		case errors.Is(err, run.ErrCooldown):
			return nil, withCode(ExitInterrupted, errors.New("interrupted during the calibration's cooldown"))
		case err != nil:
			return nil, err
		case step.Outcome != engine.Completed:
			return nil, step.Err()
		}
		res := step.Result
		share, _, _, _ := capacity.ServerCPU(res)
		fmt.Fprintf(st.Log, "  %s: server CPU %.0f%% of its cores, %.1f ops/s\n", unit.Describe(level), 100*share, res.Totals.Throughput)
		return res, nil
	})
	if err != nil {
		if exitCode(err) == ExitInternal {
			err = withCode(ExitNoServerCPU, fmt.Errorf("--target-server-cpu: %w", err))
		}
		return c, err
	}
	return c, nil
}
