package cli

import (
	"context"
	"errors"

	"github.com/spf13/pflag"

	"github.com/mongoload/mongoload/internal/analysis"
	"github.com/mongoload/mongoload/internal/capacity"
	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/results"
)

// notInFindMax are the run settings findmax does not take: it sets each
// probe's rate and length itself.
// The dashboard follows one run or a sweep's levels, not a search (yet).
var notInFindMax = []string{"duration", "stages", "repeat", "pass-quorum", "rate", "sessions", "dashboard", "dashboard-linger"}

// findMaxFlags are findmax's own flags.
type findMaxFlags struct {
	start, factor   *float64
	precision       *string
	achieved        *string
	maxProbes       *int
	stepDur         *string
	cpu             *float64
	html, csv       *string
	markdown        *bool
	targetServerCPU *string
	acceptNoise     *bool
}

func addFindMaxFlags(fs *pflag.FlagSet) *findMaxFlags {
	d := capacity.DefaultPolicy(0)
	return &findMaxFlags{
		start:           fs.Float64("start", 0, "the first probe's rate in ops/s (default: half the throughput of a closed-loop run at --concurrency)"),
		factor:          fs.Float64("factor", d.Factor, "the climb's multiplier from one passing rate to the next"),
		precision:       fs.String("precision", "5%", "stop bisecting when the bracket between the highest passing and the lowest failing rate is this narrow"),
		achieved:        fs.String("achieved", "95%", "a probe fails unless it achieved this share of its rate"),
		maxProbes:       fs.Int("max-probes", d.MaxProbes, "the most probes the search runs, every one counted; a rate is answered only once shown to pass within them (3 passing runs), else exit 31"),
		stepDur:         fs.String("step-duration", config.Duration(capacity.FindMaxStep).String(), "measured length of each probe (after its own --warmup, default 5s)"),
		cpu:             fs.Float64("client-cpu-limit", analysis.DefaultSweepOptions().ClientCPU, "share of the CPU mongoload may use above which it is named the limit"),
		html:            fs.String("html", "", "also write the search as a self-contained HTML report (the probes against the SLO line) to this file"),
		csv:             fs.String("csv", "", "also write the probes and their series as CSV files into this directory"),
		markdown:        fs.Bool("markdown", false, "print the tables as Markdown instead of aligned text"),
		targetServerCPU: addCalibrationFlag(fs),
		acceptNoise:     addAcceptNoiseFlag(fs),
	}
}

// request checks every value of findmax's own flags at once (each bad one
// is a line; exit 12) and returns the search they ask for.
func (ff *findMaxFlags) request(fs *pflag.FlagSet, o IO) (*capacity.FindMaxRequest, error) {
	var es config.Errors
	es.Add(flagNumbers(fs))
	precision, err := config.ParseShareFrom(config.FlagSource("precision"), *ff.precision, capacity.PrecisionRange)
	es.Add(err)
	share, err := config.ParseShareFrom(config.FlagSource("achieved"), *ff.achieved, config.ShareRange)
	es.Add(err)
	target, err := calibrationTarget(*ff.targetServerCPU)
	es.Add(err)
	stepDur, err := parseStepDuration(*ff.stepDur, "30s")
	es.Add(err)
	r := &capacity.FindMaxRequest{Policy: capacity.DefaultPolicy(*ff.start), AchievedShare: share, StepDuration: stepDur,
		WarmupGiven: settingGiven(fs, o, "warmup"), TargetCPU: target, Options: analysis.DefaultSweepOptions(), Version: Version}
	r.Options.ClientCPU = *ff.cpu
	r.Policy.Factor, r.Policy.Precision, r.Policy.MaxProbes = *ff.factor, precision, *ff.maxProbes
	if len(es) == 0 { // each value in its range: now how they go together
		es.Add(r.Validate())
	}
	return r, es.Err()
}

func findMaxCommand(ctx context.Context, args []string, o IO) (err error) {
	fs := newFlags("findmax", `[WORKLOAD] --slo "p99<=20ms" [flags]`, o)
	addStepSettings(fs, notInFindMax, map[string]string{
		"out": "write the search (every probe's results, maxRate) as JSON to this file",
		"slo": `the service level each probe must meet, such as "p99<=20ms,under(10ms)>=99.5%"; no rate meeting it exits 31`,
	})
	ff := addFindMaxFlags(fs)
	rf := addRunFlags(fs)
	addPlgmFlags(fs)
	if err := parseArgs(fs, args, 1); err != nil {
		return err
	}
	req, err := ff.request(fs, o)
	if err != nil {
		return err
	}
	rf.hide = notInFindMax
	cfg, plan, out, err := rf.configure(fs.Arg(0), fs, o)
	if err != nil {
		return err
	}
	if err := req.Prepare(cfg); err != nil {
		return err
	}
	if err := checkSweepOutputs(cfg, *ff.html, *ff.csv, rf.inputs(fs.Arg(0), fs)); err != nil {
		return err
	}
	sess, st, err := openSteps(ctx, o, cfg, req.First(cfg), plan, out, rf.inputs(fs.Arg(0), fs))
	if err != nil {
		return err
	}
	defer sess.Close()
	sess.Quiet() // one line per probe instead of each run's own
	f, runErr := req.Run(ctx, cfg, st)
	doc := &document{Sweep: f.Sweep()}
	if err := ensureAnalysis(doc.Sweep); err != nil {
		return errors.Join(runErr, err)
	}
	write := func(path string) error { return results.WriteFindMax(path, f) }
	if err := finish(o, doc, cfg.Run.Out, "findmax", write, *ff.html, *ff.csv, *ff.markdown, runErr); err != nil {
		return err
	}
	if err := keepHistory(o, cfg.Run.History, f); err != nil {
		return err
	}
	if err := noiseExit(f.Reliable, f.ReliableWhy, *ff.acceptNoise); err != nil {
		return err
	}
	if !f.Found {
		return withCode(ExitNoRate, errors.New(f.Summary))
	}
	return nil
}

// addAcceptNoiseFlag registers --accept-noise (findmax, sweep).
func addAcceptNoiseFlag(fs *pflag.FlagSet) *bool {
	return fs.Bool("accept-noise", false, "exit 0 even when the answer is unreliable (other work on the host, probes that disagree); the files and the report still say so")
}

// noiseExit is exit 25 with the reason when an answer is unreliable and
// --accept-noise was not given.
func noiseExit(reliable *bool, why string, accept bool) error {
	if reliable == nil || *reliable || accept {
		return nil
	}
	return withCode(ExitNoise, errors.New(why))
}
