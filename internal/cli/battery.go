package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mongoload/mongoload/internal/analysis"
	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/engine"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/workload"
)

// battery runs the measured phase --repeat times with a cool-down between
// runs, judges each run by the --slo objectives, and passes when at least
// --pass-quorum runs (default: all) met every objective: exit 0, else
// ExitSLA, so the command can gate a CI pipeline.
func battery(ctx context.Context, o IO, cfg *config.Config, plan *workload.Plan, client *mongodb.Client, out output) error {
	var objectives []analysis.Objective
	if cfg.Run.SLO != "" {
		var err error
		if objectives, err = analysis.ParseObjectives(cfg.Run.SLO); err != nil {
			return &config.Error{Kind: config.Invalid, Field: "--slo", Msg: err.Error()}
		}
	}
	n := max(cfg.Run.Repeat, 1)
	quorum := cfg.Run.PassQuorum
	if quorum == 0 {
		quorum = n
	}
	var runs []batteryRun
	for i := 0; i < n; i++ {
		if i > 0 && cfg.Run.Cooldown > 0 {
			fmt.Fprintf(o.Stderr, "cooling down for %s\n", cfg.Run.Cooldown)
			select {
			case <-time.After(cfg.Run.Cooldown.D()):
			case <-ctx.Done():
			}
		}
		if ctx.Err() != nil {
			break
		}
		runCfg := *cfg
		runCfg.Run.Out = runFile(cfg.Run.Out, i, n)
		runCfg.Run.OperationSeed = config.StepSeed(cfg.Run.OperationSeed, i) // a repeat must not replay the last run's writes
		if n > 1 {
			fmt.Fprintf(o.Stderr, "battery run %d of %d\n", i+1, n)
		}
		step, err := measureStep(ctx, o, &runCfg, plan, client, out)
		if err != nil {
			return err
		}
		verdicts, err := analysis.Check(step.Result, objectives)
		if err != nil {
			return err
		}
		runs = append(runs, batteryRun{step: step, verdicts: verdicts})
		if len(objectives) > 0 {
			writeVerdicts(o.Stdout, verdicts)
		}
		if step.Outcome != engine.Completed || step.writeErr != nil {
			break // an interrupted run ends the battery: its verdict would mean nothing
		}
	}
	if len(runs) == 0 {
		return withCode(ExitInterrupted, errors.New("interrupted before the first run"))
	}
	last := runs[len(runs)-1].step
	if n > 1 && len(objectives) > 0 {
		writeBattery(o.Stdout, objectives, runs, quorum)
	}
	if last.Outcome == engine.DurationReached && len(objectives) > 0 && last.writeErr == nil {
		// Operations abandoned in flight have no latency: the percentiles
		// leave them out, so no objective can be said to be met.
		return withCode(ExitSLA, fmt.Errorf("the SLO is not met: %s", last.Reason))
	}
	if last.Outcome != engine.Completed || last.writeErr != nil {
		return last.exitError()
	}
	passed := 0
	for _, r := range runs {
		if analysis.Passed(r.verdicts) {
			passed++
		}
	}
	if len(objectives) > 0 && passed < quorum {
		return withCode(ExitSLA, fmt.Errorf("SLA failed: %d of %d runs met every objective (%d needed)", passed, len(runs), quorum))
	}
	return nil
}

type batteryRun struct {
	step     *stepResult
	verdicts []analysis.Verdict
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

func writeVerdicts(w io.Writer, vs []analysis.Verdict) {
	fmt.Fprintln(w, "\nobjectives:")
	for _, v := range vs {
		fmt.Fprintln(w, "  "+v.String())
	}
}

// writeBattery prints each run's figure against each objective, and the verdict.
func writeBattery(w io.Writer, objectives []analysis.Objective, runs []batteryRun, quorum int) {
	fmt.Fprintf(w, "\nbattery: %d runs\n", len(runs))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "objective\t")
	for i := range runs {
		fmt.Fprintf(tw, "run %d\t", i+1)
	}
	fmt.Fprintln(tw)
	for j, ob := range objectives {
		fmt.Fprintf(tw, "%s\t", ob.Text)
		for _, r := range runs {
			v := r.verdicts[j]
			mark := "ok"
			if !v.Pass {
				mark = "MISS"
			}
			fmt.Fprintf(tw, "%s %s\t", formatMeasured(v), mark)
		}
		fmt.Fprintln(tw)
	}
	passed := 0
	fmt.Fprint(tw, "verdict\t")
	for _, r := range runs {
		if analysis.Passed(r.verdicts) {
			passed++
			fmt.Fprint(tw, "PASS\t")
		} else {
			fmt.Fprint(tw, "FAIL\t")
		}
	}
	fmt.Fprintln(tw)
	_ = tw.Flush()
	result := "SLA HOLDS"
	if passed < quorum {
		result = "SLA FAILED"
	}
	fmt.Fprintf(w, "%d/%d passed (quorum %d): %s\n", passed, len(runs), quorum, result)
}

func formatMeasured(v analysis.Verdict) string {
	if v.Missing {
		return "n/a"
	}
	s := v.String()
	if i := strings.Index(s, "measured "); i >= 0 {
		s = s[i+len("measured "):]
		if j := strings.Index(s, " ("); j >= 0 {
			s = s[:j] // the table's cell: the figure alone
		}
		return s
	}
	return s
}
