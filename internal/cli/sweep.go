package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/spf13/pflag"

	"github.com/mongoload/mongoload/internal/analysis"
	"github.com/mongoload/mongoload/internal/capacity"
	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/run"
	"github.com/mongoload/mongoload/internal/sink"
	"github.com/mongoload/mongoload/internal/workload"
)

// sweepParams are the load parameters a sweep can step, with the setting
// each one replaces.
var sweepParams = capacity.SweepParams

// notInSweep are the run settings a sweep does not take: it sets each
// step's length and load itself, and batteries and SLO gates are run's.
var notInSweep = []string{"duration", "stages", "repeat", "pass-quorum", "slo"}

// sweepFlags are the sweep's own flags.
type sweepFlags struct {
	stepDur          *string
	html, csv        *string
	markdown         *bool
	latency          *string
	linear, knee     *float64
	latKnee, plateau *float64
	drop, over, cpu  *float64
	acceptNoise      *bool
}

func addSweepFlags(fs *pflag.FlagSet) *sweepFlags {
	d := analysis.DefaultSweepOptions()
	f := &sweepFlags{}
	for _, l := range []struct{ name, usage string }{
		{"concurrency", "closed loop: the workers of each step, such as 4,8,16,32,64 (repeatable)"},
		{"rate", "open loop: the target rate of each step, such as 1000,2000,4000 (repeatable)"},
		{"sessions", "think-time sessions: the sessions of each step, such as 1000,2000,5000 (repeatable)"},
	} {
		// repeatable: --concurrency 4,8 --concurrency 16 is 4,8,16
		fs.Var(&settingValue{join: ","}, l.name, l.usage+" ["+config.EnvName(l.name)+"]")
	}
	f.stepDur = fs.String("step-duration", "60s", "measured length of each step (after its --warmup)")
	f.linear = fs.Float64("linear-gain", d.Rules.LinearGain, "verdict rule: a step gaining at least this share of the proportional throughput gain scales linearly")
	f.knee = fs.Float64("knee-gain", d.Rules.KneeGain, "verdict rule: extra load is worth it while it buys at least this share of the proportional gain (sets the sweet spot)")
	f.latKnee = fs.Float64("latency-knee", d.Rules.LatencyKnee, "verdict rule: a latency jump of this factor to the next step also ends scaling (open loop)")
	f.plateau = fs.Float64("plateau", d.Rules.Plateau, "verdict rule: steps within this share of the highest throughput are on the plateau")
	f.drop = fs.Float64("degraded-drop", d.Rules.DegradedDrop, "verdict rule: past saturation, a throughput this share below the best lower step is Degraded")
	f.over = fs.Float64("oversaturated", d.Rules.Oversaturated, "verdict rule: past saturation, a latency this many times the sweet spot's is Oversaturated")
	f.latency = fs.String("verdict-latency", d.Latency, "the latency the verdicts use: avg, p50, p95 or p99")
	f.cpu = fs.Float64("client-cpu-limit", d.ClientCPU, "share of the CPU mongoload may use (GOMAXPROCS, cgroup quota) above which it is named the limit")
	f.html = fs.String("html", "", "also write the sweep as a self-contained HTML report to this file")
	f.csv = fs.String("csv", "", "also write the sweep's tables and interval series as CSV files into this directory")
	f.markdown = fs.Bool("markdown", false, "print the tables as Markdown instead of aligned text")
	f.acceptNoise = addAcceptNoiseFlag(fs)
	return f
}

// options gathers the verdict rules from the flags.
func (f *sweepFlags) options() (analysis.SweepOptions, error) {
	o := analysis.SweepOptions{
		Rules: analysis.SweepRules{LinearGain: *f.linear, KneeGain: *f.knee, LatencyKnee: *f.latKnee,
			Plateau: *f.plateau, DegradedDrop: *f.drop, Oversaturated: *f.over},
		Latency: *f.latency, ClientCPU: *f.cpu,
	}
	return o, o.Validate()
}

// settingGiven says whether the user set a setting by its flag or its
// variable (a command's own default applies otherwise).
func settingGiven(fs *pflag.FlagSet, o IO, flag string) bool {
	return sources(fs, o).Given(flag)
}

func sweepCommand(ctx context.Context, args []string, o IO) (err error) {
	fs := newFlags("sweep", "[WORKLOAD] --concurrency 4,8,16,... | --rate R1,R2,... | --sessions S1,S2,... [flags]", o)
	addStepSettings(fs, append(notInSweep, sweepParams...), map[string]string{"out": "write the sweep (every step's results and the analysis) as JSON to this file"})
	sf := addSweepFlags(fs)
	targetCPU := addCalibrationFlag(fs)
	rf := addRunFlags(fs)
	addPlgmFlags(fs)
	if err := parseArgs(fs, args, 1); err != nil {
		return err
	}
	req, err := sf.request(fs, o, *targetCPU)
	if err != nil {
		return err
	}
	rf.hide = sweepParams
	cfg, plan, out, err := rf.configure(fs.Arg(0), fs, o)
	if err != nil {
		return err
	}
	if err := req.Prepare(cfg); err != nil {
		return err
	}
	if err := checkSweepOutputs(cfg, *sf.html, *sf.csv, rf.inputs(fs.Arg(0), fs)); err != nil {
		return err
	}
	if out.view, err = startDashboard(o, cfg, "sweep"); err != nil {
		return err
	}
	var sw *results.Sweep
	defer func() { out.view.End(ctx, o.Stderr, sw, err) }() // the dashboard's final report
	out.view.SetSweep(req.Param, req.Levels)
	sess, st, err := openSteps(ctx, o, cfg, req.First(cfg), plan, out, rf.inputs(fs.Arg(0), fs))
	if err != nil {
		return err
	}
	defer sess.Close()
	sw, runErr := req.Run(ctx, cfg, st)
	if sw == nil {
		return runErr
	}
	write := func(path string) error { return results.WriteSweep(path, sw) }
	if err := finish(o, &document{Sweep: sw}, cfg.Run.Out, "sweep", write, *sf.html, *sf.csv, *sf.markdown, runErr); err != nil {
		return err
	}
	if err := keepHistory(o, cfg.Run.History, sw); err != nil {
		return err
	}
	return noiseExit(sw.Reliable, sw.ReliableWhy, *sf.acceptNoise)
}

// request reads the sweep's own flags: every bad value at once (exit 12);
// a command line naming no parameter or two is a plain error (exit 2).
func (f *sweepFlags) request(fs *pflag.FlagSet, o IO, targetCPU string) (capacity.SweepRequest, error) {
	param, levels, err := capacity.SweepLevels(sources(fs, o))
	if _, usage := run.KindOf(err); usage {
		return capacity.SweepRequest{}, err // nothing to sweep, or two parameters: exit 2
	}
	var es config.Errors
	es.Add(err)
	es.Add(flagNumbers(fs))
	target, err := calibrationTarget(targetCPU)
	es.Add(err)
	stepDur, err := parseStepDuration(*f.stepDur, "60s")
	es.Add(err)
	opts, err := f.options()
	if len(es) == 0 { // each value in its range: now how they go together
		es.Add(err)
	}
	return capacity.SweepRequest{Param: param, Levels: levels, StepDuration: stepDur, CooldownGiven: settingGiven(fs, o, "cooldown"),
		TargetCPU: target, Options: opts, Version: Version}, es.Err()
}

// addStepSettings registers the run settings as flags for a command that
// measures several steps, but those in skip (which it sets itself), with
// its own usage for some (--out: what the command writes).
func addStepSettings(fs *pflag.FlagSet, skip []string, usages map[string]string) {
	addSettingsWhere(fs, func(flag string) bool { return !slices.Contains(skip, flag) && !slices.Contains(replayOnly, flag) }, usages)
}

// openSteps opens the session of a command that measures several steps
// (first is the first step's configuration, whose load model says whether
// sends are tracked; seeding follows cfg) and its stepper: each step's own
// report on stdout is discarded, the command prints its table instead.
func openSteps(ctx context.Context, o IO, cfg, first *config.Config, plan *workload.Plan, out output, inputs []string) (*run.Session, *capacity.Stepper, error) {
	first.Run.Concurrency = cfg.Run.Concurrency
	sess, err := openSession(ctx, o, first, plan, out, inputs)
	if err != nil {
		return nil, nil, err
	}
	measure := func(ctx context.Context, sc *config.Config, sinks ...sink.Sink) (*run.Result, error) {
		return out.measure(ctx, o, sess, sc, io.Discard, sinks...)
	}
	return sess, &capacity.Stepper{Cfg: cfg, Measure: measure, Log: o.Stderr, Answers: sess.Answers}, nil
}

// checkSweepOutputs fails before the sweep if its report files cannot be
// written, or two of its outputs are one file; run.Open tries the sweep
// file, the interval logs and the Prometheus endpoint.
func checkSweepOutputs(cfg *config.Config, html, csvDir string, inputs []string) error {
	if err := results.CheckDistinct(results.Output{What: "file (--out)", Path: cfg.Run.Out}, results.Output{What: "HTML report (--html)", Path: html},
		results.Output{What: "interval log (--hdr-log)", Path: cfg.Run.HdrLog}); err != nil {
		return withCode(ExitOutput, err)
	}
	if html != "" {
		if err := results.CheckWritable(html, inputs...); err != nil {
			return withCode(ExitOutput, err)
		}
	}
	if csvDir != "" {
		if err := os.MkdirAll(csvDir, 0o755); err != nil {
			return withCode(ExitOutput, fmt.Errorf("--csv: %w", err))
		}
	}
	return nil
}
