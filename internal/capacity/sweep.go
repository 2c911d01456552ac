package capacity

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/engine"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/run"
	"github.com/mongoload/mongoload/internal/sink"
)

// Measure measures one run of cfg on a prepared session: Session.Run with
// the command's sinks and report, and sinks besides.
type Measure func(ctx context.Context, cfg *config.Config, sinks ...sink.Sink) (*run.Result, error)

// Sweep measures one step per level of param through st, on the prepared
// data, and returns the steps it measured. It writes the sweep file
// (cfg.Run.Out, without analysis) after every step, so a sweep killed
// outright still leaves its finished steps behind. The error is the step's
// or the interruption's, of its Kind.
func Sweep(ctx context.Context, cfg *config.Config, st *Stepper, param string, levels []float64, version string) (*results.Sweep, error) {
	log := st.Log
	typ := map[string]string{"concurrency": results.Closed, "rate": results.Open, "sessions": results.Sessions}[param]
	sw := &results.Sweep{
		FileHead: run.FileHead(cfg, results.SweepSchema, version),
		Load:     results.SweepLoad{Type: typ, Parameter: param, Levels: levels},
		StepSpan: run.StepSpan(cfg, cfg.Run.Duration.D()),
		Steps:    []results.SweepStep{},
	}
	for i, lv := range levels {
		step, err := st.Step(ctx, param, lv, fmt.Sprintf("step %d/%d: %s for %s", i+1, len(levels), sw.Load.Describe(lv), cfg.Run.Duration))
		for try := 0; err == nil && step.Outcome != engine.Interrupted; try++ {
			what := fmt.Sprintf("step %d (%s)", i+1, sw.Load.Describe(lv))
			serr := st.stalled(ctx, step, what)
			var paused *Paused
			if serr == nil || (errors.As(serr, &paused) && try >= pauseRetries) {
				break // judged as measured: a pause in every try is the step's own
			}
			if !errors.As(serr, &paused) {
				sw.Steps = append(sw.Steps, results.SweepStep{Level: lv, Complete: false, Result: step.Result})
				return stopSweep(sw, engine.ServerLost, serr.Error())
			}
			sw.Notes = append(sw.Notes, fmt.Sprintf("%s was run again: the server stopped answering during it and came back (%s)", what, paused.What))
			fmt.Fprintf(log, "  %s: the server stopped answering and came back: run again\n", what)
			step, err = st.Step(ctx, param, lv, fmt.Sprintf("step %d/%d again: %s for %s", i+1, len(levels), sw.Load.Describe(lv), cfg.Run.Duration))
		}
		if errors.Is(err, run.ErrCooldown) {
			return stopSweep(sw, engine.Interrupted, fmt.Sprintf("interrupted during the cooldown before step %d (%s)", i+1, sw.Load.Describe(lv)))
		}
		if err != nil { // the step could not run at all
			sw.Notes = append(sw.Notes, fmt.Sprintf("the sweep stopped: step %d (%s) could not run: %v", i+1, sw.Load.Describe(lv), err))
			sw.Outcome, sw.Reason = results.Failed, err.Error()
			sw.EndedAt = time.Now()
			return sw, err
		}
		res := step.Result
		sw.Steps = append(sw.Steps, results.SweepStep{Level: lv, Complete: step.Outcome == engine.Completed, Result: res})
		fmt.Fprintln(log, stepLine(i+1, len(levels), sw.Load, lv, res))
		if cfg.Run.Out != "" {
			sw.EndedAt = time.Now()
			if err := results.WriteSweep(cfg.Run.Out, sw); err != nil {
				fmt.Fprintln(log, "warning: "+err.Error())
			}
		}
		switch step.Outcome {
		case engine.Interrupted:
			return stopSweep(sw, step.Outcome, fmt.Sprintf("interrupted during step %d (%s): its partial measurements are kept but not judged", i+1, sw.Load.Describe(lv)))
		case engine.ServerLost:
			return stopSweep(sw, step.Outcome, fmt.Sprintf("the server went away during step %d (%s): %s", i+1, sw.Load.Describe(lv), step.Reason))
		}
	}
	sw.EndedAt = time.Now()
	return sw, nil
}

// stopSweep ends a sweep early with a note and the matching exit code.
func stopSweep(sw *results.Sweep, outcome engine.Outcome, why string) (*results.Sweep, error) {
	sw.EndedAt = time.Now()
	sw.Outcome, sw.Reason = results.Outcome(outcome), why
	done := 0
	for _, st := range sw.Steps {
		if st.Complete {
			done++
		}
	}
	sw.Notes = append(sw.Notes, fmt.Sprintf("the sweep stopped early, %s; %d of %d steps finished and are analysed", why, done, len(sw.Load.Levels)))
	finished := fmt.Sprintf("the %d finished steps above were analysed", done)
	switch done {
	case 0:
		finished = "no step finished"
	case 1:
		finished = "the finished step above was analysed"
	}
	return sw, run.Stopped(outcome, fmt.Errorf("the sweep stopped early: %s; %s", why, finished))
}

// stepPath names a step's own file beside path: run.hlog -> run-c16.hlog.
func stepPath(path, param string, level float64) string {
	ext := filepath.Ext(path)
	tag := map[string]string{"concurrency": "c", "rate": "r", "sessions": "s"}[param]
	return strings.TrimSuffix(path, ext) + "-" + tag + strconv.FormatFloat(level, 'f', -1, 64) + ext
}

// stepLine is the one line printed after each step.
func stepLine(i, n int, load results.SweepLoad, level float64, res *results.Result) string {
	t := res.Totals
	line := fmt.Sprintf("step %d/%d: %s: %.1f ops/s, avg %.3f ms, p99 %.3f ms, %d errors", i, n, load.Describe(level), t.Throughput, t.Latency.Avg, t.Latency.P99, t.Errors)
	if c := res.Client; c != nil {
		line += ", client CPU " + c.CPUText()
	}
	return line
}

// StepConfig is the configuration of the step at level: the swept
// parameter set, the other load models off.
func StepConfig(cfg *config.Config, param string, level float64) *config.Config {
	c := *cfg
	switch param {
	case "rate":
		c.Run.Rate, c.Run.Sessions = level, 0
	case "sessions":
		c.Run.Sessions, c.Run.Rate = int(level), 0
	default:
		c.Run.Concurrency, c.Run.Rate, c.Run.Sessions = int(level), 0, 0
	}
	return &c
}
