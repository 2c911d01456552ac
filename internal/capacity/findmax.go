package capacity

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/analysis"
	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/engine"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/run"
	"github.com/mongoload/mongoload/internal/sink"
)

// A rate search (findmax) and a calibration to a server CPU target are
// sequences of steps through a Stepper, each adding its own decision
// (internal/capacity's policies).

// FindMax searches through st for the highest open-loop rate meeting the
// objectives (Search, its policy pol): it estimates the start if
// f has none, then probes, writing f to cfg.Run.Out after each probe.
func FindMax(ctx context.Context, cfg *config.Config, st *Stepper, f *results.FindMax, pol Policy, objectives []analysis.Objective) error {
	if f.Start == 0 {
		step, err := estimate(ctx, cfg, st, f)
		if err != nil {
			return StopFindMax(f, err)
		}
		c := cfg.Run.Concurrency
		res := step.Result
		f.Estimate, f.StartFrom = res, "estimate"
		x := res.Totals.Throughput
		if x <= 0 {
			return StopFindMax(f, runFail(run.ServerFailure, fmt.Errorf("estimate: the closed loop of %d workers completed no operation (%d errors); give --start", c, res.Totals.Errors)))
		}
		// Half the closed loop's throughput: open-loop latency only holds
		// below the most the server completes, so the climb starts there.
		pol.Start = max(pol.Floor, float64(int(x/2)))
		f.Start = pol.Start
		fmt.Fprintf(st.Log, "estimate: %.1f ops/s closed-loop; the search starts at %s ops/s\n", x, results.Target(pol.Start))
	}
	n := 0
	probe := func(ctx context.Context, rate float64, stage Stage, counts sink.Sink) (*results.Result, error) {
		n++
		d := cfg.Run.Duration.D()
		if stage == Confirm && counts == nil {
			// The answer must hold for longer than one probe, not just
			// again. A decided search (counts) shows it in NeedPass runs
			// instead, each as long as the others: a window of its own.
			d *= 2
		}
		var sinks []sink.Sink
		if counts != nil {
			sinks = append(sinks, counts)
		}
		step, err := st.StepFor(ctx, "rate", rate, d, fmt.Sprintf("probe %d (%s): %s ops/s for %s", n, stage, results.Target(rate), config.Duration(d)), sinks...)
		switch {
		case errors.Is(err, run.ErrCooldown):
			return nil, runFail(run.Interrupted, fmt.Errorf("interrupted during the cooldown before probe %d", n))
		case err != nil:
			return nil, err
		case step.Outcome == engine.Interrupted:
			return step.Result, step.Err()
		}
		what := fmt.Sprintf("probe %d (%s, %s ops/s)", n, stage, results.Target(rate))
		if err := st.stalled(ctx, step, what); err != nil {
			var paused *Paused
			if errors.As(err, &paused) {
				fmt.Fprintf(st.Log, "  %s: the server stopped answering and came back (%s): not judged, probed again\n", what, paused.What)
			}
			return step.Result, err
		}
		if step.Outcome != engine.Completed {
			return step.Result, step.Err()
		}
		return step.Result, nil
	}
	s := Search{Policy: pol, Objectives: objectives, AchievedShare: f.AchievedShare, MaxExtensions: MaxExtensions,
		Run: func(ctx context.Context, rate float64, stage Stage) (*results.Result, error) {
			return probe(ctx, rate, stage, nil)
		},
		RunCounted: probe,
		OnProbe: func(f *results.FindMax) {
			p := f.Probes[len(f.Probes)-1]
			fmt.Fprintln(st.Log, probeLine(p))
			if cfg.Run.Out != "" {
				f.EndedAt = time.Now()
				if err := results.WriteFindMax(cfg.Run.Out, f); err != nil {
					fmt.Fprintln(st.Log, "warning: "+err.Error())
				}
			}
		},
	}
	if err := s.Do(ctx, f); err != nil {
		return StopFindMax(f, err)
	}
	return nil
}

// estimate runs the closed loop whose throughput sets the start. A
// server that stopped answering during it would set the whole search's
// range from a pause (a start of 319 ops/s on a server that carries
// thousands): such an estimate is run again, up to MaxPauseRetries times,
// and if every try paused the start is announced, and noted, as measured
// through a pause.
func estimate(ctx context.Context, cfg *config.Config, st *Stepper, f *results.FindMax) (*run.Result, error) {
	c := cfg.Run.Concurrency
	for try := 0; ; try++ {
		again := map[bool]string{true: " again", false: ""}[try > 0]
		step, err := st.Step(ctx, "concurrency", float64(c), fmt.Sprintf("estimate%s: a closed loop of %d workers for %s", again, c, cfg.Run.Duration))
		if err != nil {
			return nil, err
		}
		if step.Outcome == engine.Interrupted {
			return nil, step.Err()
		}
		serr := st.stalled(ctx, step, "the estimate")
		var paused *Paused
		switch {
		case serr == nil:
		case !errors.As(serr, &paused):
			return nil, serr
		case try < MaxPauseRetries:
			fmt.Fprintf(st.Log, "  the estimate: the server stopped answering and came back (%s): not used, run again\n", paused.What)
			continue
		default:
			note := fmt.Sprintf("the server stopped answering during every estimate (%d tries; %s): the start comes from a closed loop measured through a pause, and may be far below the capacity (give --start)", try+1, paused.What)
			fmt.Fprintln(st.Log, "  warning: "+note)
			f.Notes = append(f.Notes, note)
			return step, nil
		}
		// A run ended otherwise with no error of its own (operations
		// abandoned at its end, the server answering after) is used.
		if err := step.Err(); step.Outcome != engine.Completed && err != nil {
			return nil, err
		}
		if try > 0 {
			f.Notes = append(f.Notes, fmt.Sprintf("the estimate was run %d times: the server stopped answering during the earlier tries and came back", try+1))
		}
		return step, nil
	}
}

// MaxExtensions is how many times a probe whose interval straddles an
// objective is extended at the same rate (each time by the probe's
// length) before it is judged by its point estimate (inconclusive). None: on the test
// server a window straddles because the server stalled in one of its
// seconds, and pooling more seconds rarely settles it (every window still
// inconclusive after three runs failed at its fourth, 5 of 5), while each
// run spent there was one the search could not spend showing its answer:
// in TestDecidedShowsItsAnswer two extensions left some searches with no
// rate shown in 16 probes, and one left more high ends unshown than none.
const MaxExtensions = 0

// StopFindMax records why the search stopped early.
func StopFindMax(f *results.FindMax, err error) error {
	f.Outcome, f.Reason = results.Failed, err.Error()
	switch k, _ := run.KindOf(err); k {
	case run.Interrupted:
		f.Outcome = results.Interrupted
	case run.ServerLost:
		f.Outcome = results.ServerLost
	}
	f.Notes = append(f.Notes, fmt.Sprintf("the search stopped early after %d probes: %s; what it found so far is unconfirmed", len(f.Probes), err))
	return err
}

// probeLine is the one line printed after each probe.
func probeLine(p results.Probe) string {
	t := p.Result.Totals
	verdict := "PASS"
	switch {
	case p.Terms == nil && len(p.Tails) > 0:
		verdict = "inconclusive: " + tailText(p.Tails) + ": extended"
	case p.Terms == nil && p.Interrupted != "":
		verdict = "not judged: the server stopped answering"
	case p.Terms == nil:
		verdict = "not judged (cut short)"
	case !p.Pass:
		verdict = "FAIL " + strings.Join(Failed(p.Terms), ", ")
	}
	if p.Terms != nil && p.Inconclusive {
		verdict += " (inconclusive: judged by its point estimate)"
	}
	return fmt.Sprintf("  %s ops/s: %.1f achieved, p99 %.3f ms, %d dropped, other cpu %s: %s", results.Target(p.Rate), t.Throughput, t.Latency.P99, p.Result.Dropped(), results.NoiseText(p.Result), verdict)
}

// ObjectiveTexts are the objectives as the user wrote them.
func ObjectiveTexts(objs []analysis.Objective) []string {
	out := make([]string, len(objs))
	for i, o := range objs {
		out[i] = o.Text
	}
	return out
}

// RequireServerCPU makes every step of st fail at once, of Kind
// NoServerCPU, with what is missing, when the server's CPU cannot be
// measured: a calibration would otherwise run the whole sweep or search
// first.
func RequireServerCPU(st *Stepper) {
	st.Check = func(res *results.Result) error {
		if _, _, _, err := ServerCPU(res); err != nil {
			return runFail(run.NoServerCPU, fmt.Errorf("--target-server-cpu: %w", err))
		}
		return nil
	}
}

// CalibrateSteps finds the level of param at which the server's CPU sits at
// target, from the results measured already and more steps through st.
func CalibrateSteps(ctx context.Context, st *Stepper, param string, target float64, seed map[float64]*results.Result) (*results.Calibration, error) {
	unit := results.SweepLoad{Parameter: param}
	pol := DefaultCalibration(target, param != "rate")
	c, err := Calibrate(ctx, pol, param, seed, func(ctx context.Context, level float64) (*results.Result, error) {
		step, err := st.Step(ctx, param, level, fmt.Sprintf("calibration: %s for %s", unit.Describe(level), st.Cfg.Run.Duration))
		switch {
		case errors.Is(err, run.ErrCooldown):
			return nil, runFail(run.Interrupted, errors.New("interrupted during the calibration's cooldown"))
		case err != nil:
			return nil, err
		case step.Outcome != engine.Completed:
			return nil, step.Err()
		}
		res := step.Result
		share, _, _, _ := ServerCPU(res)
		fmt.Fprintf(st.Log, "  %s: server CPU %.0f%% of its cores, %.1f ops/s\n", unit.Describe(level), 100*share, res.Totals.Throughput)
		return res, nil
	})
	if err != nil {
		if _, ok := run.KindOf(err); !ok {
			err = runFail(run.NoServerCPU, fmt.Errorf("--target-server-cpu: %w", err))
		}
		return c, err
	}
	return c, nil
}
