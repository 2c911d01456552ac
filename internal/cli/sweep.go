package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/mongoload/mongoload/internal/analysis"
	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/engine"
	"github.com/mongoload/mongoload/internal/results"
)

// sweepParams are the load parameters a sweep can step, with the setting
// each one replaces.
var sweepParams = []string{"concurrency", "rate", "sessions"}

// notInSweep are the run settings a sweep does not take: it sets each
// step's length and load itself, and batteries and SLO gates are run's.
var notInSweep = []string{"duration", "stages", "repeat", "pass-quorum", "slo"}

// defaultCooldown is the pause between steps unless --cooldown says
// otherwise, so one step's backlog (checkpoints, eviction) settles before
// the next.
const defaultCooldown = 15 * time.Second

// sweepFlags are the sweep's own flags.
type sweepFlags struct {
	lists            map[string]*settingValue // repeatable: --concurrency 4,8 --concurrency 16 is 4,8,16
	stepDur          *string
	html, csv        *string
	markdown         *bool
	latency          *string
	linear, knee     *float64
	latKnee, plateau *float64
	drop, over, cpu  *float64
}

func addSweepFlags(fs *pflag.FlagSet) *sweepFlags {
	d := analysis.DefaultSweepOptions()
	f := &sweepFlags{lists: map[string]*settingValue{}}
	for _, l := range []struct{ name, usage string }{
		{"concurrency", "closed loop: the workers of each step, such as 4,8,16,32,64 (repeatable) [MONGOLOAD_CONCURRENCY]"},
		{"rate", "open loop: the target rate of each step, such as 1000,2000,4000 (repeatable) [MONGOLOAD_RATE]"},
		{"sessions", "think-time sessions: the sessions of each step, such as 1000,2000,5000 (repeatable) [MONGOLOAD_SESSIONS]"},
	} {
		f.lists[l.name] = &settingValue{join: ","}
		fs.Var(f.lists[l.name], l.name, l.usage)
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

// levels finds the one stepped parameter and its levels, from the flags or
// else the environment.
func (f *sweepFlags) levels(fs *pflag.FlagSet, env func(string) (string, bool)) (string, []float64, error) {
	var param, text string
	for _, p := range sweepParams {
		v, given := f.lists[p].String(), fs.Changed(p)
		if !given {
			v, given = env("MONGOLOAD_" + strings.ToUpper(p))
		}
		if !given || v == "" {
			continue
		}
		if param != "" {
			return "", nil, fmt.Errorf("give one of --concurrency, --rate or --sessions as the swept parameter, not both --%s and --%s", param, p)
		}
		param, text = p, v
	}
	if param == "" {
		return "", nil, errors.New("say what to sweep: --concurrency 4,8,16,32 (workers), --rate 1000,2000,4000 (open loop) or --sessions 100,1000 (think-time sessions)")
	}
	var out []float64
	for _, s := range strings.Split(text, ",") {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		v, err := strconv.ParseFloat(strings.ReplaceAll(s, "_", ""), 64)
		if err != nil || v <= 0 || (param != "rate" && v != float64(int(v))) {
			return "", nil, fmt.Errorf("--%s %q: %q is not a positive %s", param, text, s, map[bool]string{true: "rate", false: "whole number"}[param == "rate"])
		}
		if len(out) > 0 && v <= out[len(out)-1] {
			return "", nil, fmt.Errorf("--%s %q: the levels must increase from step to step", param, text)
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return "", nil, fmt.Errorf("--%s: no level given", param)
	}
	return param, out, nil
}

// hideSettings hides the named settings' variables from the
// configuration layers: the command sets them itself (a sweep reads the
// swept ones as lists).
func hideSettings(env func(string) (string, bool), flags []string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		for _, p := range flags {
			if k == "MONGOLOAD_"+strings.ToUpper(strings.ReplaceAll(p, "-", "_")) {
				return "", false
			}
		}
		return env(k)
	}
}

// settingGiven says whether the user set a setting by its flag or its
// variable (a command's own default applies otherwise).
func settingGiven(fs *pflag.FlagSet, o IO, flag string) bool {
	_, inEnv := o.Getenv("MONGOLOAD_" + strings.ToUpper(strings.ReplaceAll(flag, "-", "_")))
	return fs.Changed(flag) || inEnv
}

func sweepCommand(ctx context.Context, args []string, o IO) (err error) {
	fs := newFlags("sweep", "[WORKLOAD] --concurrency 4,8,16,... | --rate R1,R2,... | --sessions S1,S2,... [flags]", o)
	addStepSettings(fs, append(notInSweep, sweepParams...), "write the sweep (every step's results and the analysis) as JSON to this file")
	sf := addSweepFlags(fs)
	targetCPU := addCalibrationFlag(fs)
	rf := addRunFlags(fs)
	addPlgmFlags(fs)
	if err := parse(fs, args, 1); err != nil {
		return err
	}
	param, levels, err := sf.levels(fs, o.Getenv)
	if err != nil {
		return withCode(ExitUsage, err)
	}
	for _, p := range sweepParams { // the configuration layers must not read the lists as single values
		fs.Lookup(p).Changed = false
	}
	opts, err := sf.options()
	if err != nil {
		return withCode(ExitUsage, err)
	}
	target, err := calibrationTarget(*targetCPU)
	if err != nil {
		return err
	}
	stepDur, err := config.ParseDuration(*sf.stepDur)
	if err != nil || stepDur <= 0 {
		return withCode(ExitUsage, fmt.Errorf("--step-duration %q must be a positive duration, such as 60s", *sf.stepDur))
	}
	inner := o
	inner.Getenv = hideSettings(o.Getenv, sweepParams)
	cfg, plan, out, err := rf.resolve(fs.Arg(0), fs, inner)
	if err != nil {
		return err
	}
	if len(cfg.Run.Stages) > 0 {
		return withCode(ExitUsage, errors.New("a sweep sets the load of each step itself: remove the workload's run.stages"))
	}
	cfg.Run.Duration = stepDur
	if cfg.Run.Cooldown == 0 && !settingGiven(fs, o, "cooldown") {
		cfg.Run.Cooldown = config.Duration(defaultCooldown)
	}
	for _, lv := range levels { // every step's configuration must be valid before anything runs
		if es := stepConfig(cfg, param, lv).Validate(); len(es) > 0 {
			return es
		}
	}
	if param == "concurrency" {
		cfg.Run.Concurrency = int(levels[len(levels)-1]) // seeding's parallelism follows it
	}
	if err := checkSweepOutputs(cfg, *sf.html, *sf.csv, rf.inputs(fs.Arg(0), fs)); err != nil {
		return err
	}
	if err := checkOperatorFlags(cfg); err != nil {
		return err
	}
	if out.view, err = startDashboard(o, cfg, "sweep"); err != nil {
		return err
	}
	var sw *results.Sweep
	defer func() { out.view.end(ctx, o, cfg, sw, err) }() // the dashboard's final report (operator.go)
	out.view.sweep(param, levels)
	st, err := prepareSteps(ctx, o, cfg, stepConfig(cfg, param, levels[0]), plan, out)
	if err != nil {
		return err
	}
	defer st.close()
	if target > 0 {
		requireServerCPU(st)
	}
	sw, runErr := runSweep(ctx, o, cfg, st, param, levels)
	if runErr == nil && target > 0 {
		seed := map[float64]*results.Result{}
		for _, s := range sw.Steps {
			if s.Complete {
				seed[s.Level] = s.Result
			}
		}
		sw.Calibration, runErr = calibrate(ctx, st, param, target, seed)
	}
	return finishSweep(o, cfg, sw, opts, sf, runErr)
}

// addStepSettings registers the run settings as flags for a command that
// measures several steps, but those in skip (which it sets itself), with
// its own usage for --out.
func addStepSettings(fs *pflag.FlagSet, skip []string, outUsage string) {
	for _, s := range config.Settings {
		if s.NoFlag || contains(skip, s.Flag) {
			continue
		}
		usage := s.Usage
		if s.Flag == "out" {
			usage = outUsage
		}
		fl := fs.VarPF(&settingValue{}, s.Flag, "", usage+" ["+s.Env()+"]")
		if s.Bool {
			fl.NoOptDefVal = "true"
		}
	}
}

// stepConfig is the configuration of the step at level: the swept
// parameter set, the other load models off.
func stepConfig(cfg *config.Config, param string, level float64) *config.Config {
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

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// checkSweepOutputs fails before the sweep if an output cannot be written
// (the steps' interval logs go beside --hdr-log) or listened on.
func checkSweepOutputs(cfg *config.Config, html, csvDir string, inputs []string) error {
	if err := checkOutputs(cfg, inputs); err != nil {
		return err
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

// runSweep measures one step per level on the prepared data, with the
// cooldown between steps, and returns the steps it measured. It writes the
// sweep file (without analysis) after every step, so a sweep killed
// outright still leaves its finished steps behind. The error is the step's
// or the interruption's, with its exit code.
func runSweep(ctx context.Context, o IO, cfg *config.Config, st *stepper, param string, levels []float64) (*results.Sweep, error) {
	cool := st.cool
	typ := map[string]string{"concurrency": results.Closed, "rate": results.Open, "sessions": results.Sessions}[param]
	sw := &results.Sweep{
		Schema: results.SweepSchema, Tool: results.Tool{Name: "mongoload", Version: Version}, Label: cfg.Run.Label,
		Cost: costOf(cfg), Workload: results.Workload{Name: cfg.Name, Source: cfg.Source},
		Load:        results.SweepLoad{Type: typ, Parameter: param, Levels: levels},
		StepSeconds: cfg.Run.Duration.D().Seconds(), WarmupSeconds: cfg.Run.Warmup.D().Seconds(), CooldownSeconds: cool.Seconds(),
		StartedAt: time.Now(), Outcome: results.Completed, Steps: []results.SweepStep{},
	}
	for i, lv := range levels {
		step, res, err := st.measure(ctx, param, lv, fmt.Sprintf("step %d/%d: %s for %s", i+1, len(levels), sw.Load.Describe(lv), cfg.Run.Duration))
		if errors.Is(err, errCooldownInterrupted) {
			return stopSweep(sw, results.Interrupted, fmt.Sprintf("interrupted during the cooldown before step %d (%s)", i+1, sw.Load.Describe(lv)))
		}
		if err != nil { // the step could not run at all
			sw.Notes = append(sw.Notes, fmt.Sprintf("the sweep stopped: step %d (%s) could not run: %v", i+1, sw.Load.Describe(lv), err))
			sw.Outcome, sw.Reason = results.Failed, err.Error()
			sw.EndedAt = time.Now()
			return sw, err
		}
		complete := step.Outcome == engine.Completed
		sw.Steps = append(sw.Steps, results.SweepStep{Level: lv, Complete: complete, Result: res})
		fmt.Fprintln(o.Stderr, stepLine(i+1, len(levels), sw.Load, lv, res))
		if cfg.Run.Out != "" {
			sw.EndedAt = time.Now()
			if err := results.WriteSweep(cfg.Run.Out, sw); err != nil {
				fmt.Fprintln(o.Stderr, "warning: "+err.Error())
			}
		}
		switch step.Outcome {
		case engine.Interrupted:
			return stopSweep(sw, results.Interrupted, fmt.Sprintf("interrupted during step %d (%s): its partial measurements are kept but not judged", i+1, sw.Load.Describe(lv)))
		case engine.ServerLost:
			return stopSweep(sw, results.ServerLost, fmt.Sprintf("the server went away during step %d (%s): %s", i+1, sw.Load.Describe(lv), step.Reason))
		}
	}
	sw.EndedAt = time.Now()
	return sw, nil
}

// stopSweep ends a sweep early with a note and the matching exit code.
func stopSweep(sw *results.Sweep, outcome results.Outcome, why string) (*results.Sweep, error) {
	sw.EndedAt = time.Now()
	sw.Outcome, sw.Reason = outcome, why
	done := 0
	for _, st := range sw.Steps {
		if st.Complete {
			done++
		}
	}
	sw.Notes = append(sw.Notes, fmt.Sprintf("the sweep stopped early, %s; %d of %d steps finished and are analysed", why, done, len(sw.Load.Levels)))
	code := ExitInterrupted
	if outcome == results.ServerLost {
		code = ExitServerLost
	}
	finished := fmt.Sprintf("the %d finished steps above were analysed", done)
	switch done {
	case 0:
		finished = "no step finished"
	case 1:
		finished = "the finished step above was analysed"
	}
	return sw, withCode(code, fmt.Errorf("the sweep stopped early: %s; %s", why, finished))
}

// stepResultOf is the step's full result: the one its results file holds
// (with the interval series), else the one measureStep returned. The
// recorded configuration names the sweep's file, not the temporary one.
func stepResultOf(step *stepResult, tmpPath, sweepOut string, cost *results.Cost) *results.Result {
	res := step.Result
	if r, err := results.ReadJSON(tmpPath); err == nil {
		res = r
	} else {
		res.Notes = append(res.Notes, "this step's interval series was not kept: "+err.Error())
	}
	oldQ, _ := json.Marshal(tmpPath)
	newQ, _ := json.Marshal(sweepOut)
	res.Config = bytes.ReplaceAll(res.Config, oldQ, newQ) // the path is unique: a fresh temporary directory
	if res.Cost == nil {
		res.Cost = cost
	}
	return res
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

// costOf is the configured monthly cost, nil when none was given.
func costOf(cfg *config.Config) *results.Cost {
	if cfg.Run.MonthlyCost <= 0 {
		return nil
	}
	return &results.Cost{Monthly: cfg.Run.MonthlyCost, Currency: cfg.Run.Currency}
}

// finishSweep analyses what was measured, writes the files and prints the
// table, whatever way the sweep ended; the sweep's own error (its exit
// code) wins over a later one.
func finishSweep(o IO, cfg *config.Config, sw *results.Sweep, opts analysis.SweepOptions, sf *sweepFlags, runErr error) error {
	if sw == nil {
		return runErr
	}
	a, err := analysis.AnalyseSweep(sw, opts)
	if err != nil {
		return errors.Join(runErr, withCode(ExitInternal, fmt.Errorf("sweep analysis: %w", err)))
	}
	sw.Analysis = a
	var outErr error
	if cfg.Run.Out != "" {
		if err := results.WriteSweep(cfg.Run.Out, sw); err != nil {
			outErr = withCode(ExitOutput, err)
		} else {
			fmt.Fprintf(o.Stderr, "sweep written to %s\n", cfg.Run.Out)
		}
	}
	if err := writeExtras(o, &document{Sweep: sw}, *sf.html, *sf.csv); err != nil && outErr == nil {
		outErr = err
	}
	perr := printSweep(o.Stdout, sw, *sf.markdown)
	if runErr != nil {
		return runErr
	}
	if outErr != nil {
		return outErr
	}
	return perr
}
