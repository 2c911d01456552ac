package capacity

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/mongoload/mongoload/internal/analysis"
	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/engine"
	"github.com/mongoload/mongoload/internal/run"
)

// BatteryRun is one run of a battery and its verdicts.
type BatteryRun struct {
	Result   *run.Result
	Verdicts []analysis.Verdict
}

// Battery runs cfg's measured phase --repeat times with measure, the
// cooldown between runs, judges each run by the --slo objectives (told to
// onRun as each ends), and passes when at least Quorum(cfg) runs met every
// objective. It says each run and cooldown on log. The error is the battery's verdict: the SLA missed (Kind
// SLAMissed), or how its last run ended; the runs measured come back
// whatever it is.
func Battery(ctx context.Context, cfg *config.Config, measure Measure, log io.Writer, onRun func(BatteryRun)) ([]BatteryRun, error) {
	objectives, _ := analysis.ParseObjectives(cfg.Run.SLO) // validated already
	n := max(cfg.Run.Repeat, 1)
	var runs []BatteryRun
	for i := 0; i < n; i++ {
		if i > 0 && run.Cooldown(ctx, log, cfg.Run.Cooldown.D()) != nil || ctx.Err() != nil {
			break
		}
		runCfg := run.Step(cfg, i)
		runCfg.Run.Out = runFile(cfg.Run.Out, i, n)
		if n > 1 {
			fmt.Fprintf(log, "battery run %d of %d\n", i+1, n)
		}
		r, err := measure(ctx, runCfg)
		if err != nil {
			return runs, err
		}
		verdicts, err := analysis.Check(r.Result, objectives)
		if err != nil {
			return runs, err
		}
		runs = append(runs, BatteryRun{Result: r, Verdicts: verdicts})
		onRun(runs[i])
		if r.Outcome != engine.Completed || r.Err() != nil {
			break // an interrupted run ends the battery: its verdict would mean nothing
		}
	}
	if len(runs) == 0 {
		return nil, runFail(run.Interrupted, errors.New("interrupted before the first run"))
	}
	last := runs[len(runs)-1].Result
	if last.Outcome == engine.DurationReached && len(objectives) > 0 && last.Err() == nil {
		// Operations abandoned in flight have no latency: the percentiles
		// leave them out, so no objective can be said to be met.
		return runs, runFail(run.SLAMissed, fmt.Errorf("the SLO is not met: %s", last.Reason))
	}
	if err := last.Err(); err != nil {
		return runs, err
	}
	passed := 0
	for _, r := range runs {
		if analysis.Passed(r.Verdicts) {
			passed++
		}
	}
	if quorum := Quorum(cfg); len(objectives) > 0 && passed < quorum {
		return runs, runFail(run.SLAMissed, fmt.Errorf("SLA failed: %d of %d runs met every objective (%d needed)", passed, len(runs), quorum))
	}
	return runs, nil
}

// Quorum is how many runs of a battery must meet every objective:
// --pass-quorum, all of them by default.
func Quorum(cfg *config.Config) int {
	if cfg.Run.PassQuorum > 0 {
		return cfg.Run.PassQuorum
	}
	return max(cfg.Run.Repeat, 1)
}

// runFile is where run i of n writes its results: the --out file itself for
// a single run, and results-run1.json, results-run2.json, ... for a battery.
func runFile(out string, i, n int) string {
	if out == "" || n == 1 {
		return out
	}
	ext := filepath.Ext(out)
	return fmt.Sprintf("%s-run%d%s", strings.TrimSuffix(out, ext), i+1, ext)
}
