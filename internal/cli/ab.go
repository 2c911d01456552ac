package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/pflag"

	"github.com/mongoload/mongoload/internal/ab"
	"github.com/mongoload/mongoload/internal/replay"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/run"
)

// notInAB are the run settings ab does not take: it runs its own rounds
// and writes one file (--out) for both sides.
var notInAB = []string{"stages", "partition", "start-at", "slo", "repeat", "cooldown", "pass-quorum", "label",
	"monthly-cost", "currency", "target", "quiet", "hdr-log", "prometheus", "dashboard", "dashboard-linger", "fault", "explain"}

type abFlags struct {
	candidate, html    *string
	threshold, alpha   *string
	rounds, verify     *int
	parallel, sameURIs *bool
	speed, writes      *string // captured traffic's
}

func addABFlags(fs *pflag.FlagSet) *abFlags {
	d := ab.DefaultABOptions()
	return &abFlags{
		candidate: fs.String("candidate-uri", "", "the candidate deployment (B) to compare with the baseline (--uri, A)"),
		rounds:    fs.Int("rounds", 4, "measured runs per side, alternating A B B A ... so that drift of the host cancels"),
		parallel:  fs.Bool("parallel", false, "run both sides at once each round (two deployments on their own hosts; needs an open-loop --rate)"),
		verify:    fs.Int("verify", 100, "operations of each shape run one at a time on both sides before the rounds, their results compared (0: none)"),
		threshold: fs.String("threshold", fmt.Sprintf("%.0f%%", 100*d.Threshold), "the smallest latency change flagged (a shift across the distribution), such as 10% or 0.1"),
		alpha:     fs.String("alpha", fmt.Sprint(d.Alpha), "the significance level of the test across rounds"),
		sameURIs:  fs.Bool("allow-same", false, "allow the same URI on both sides: an A/A run, which shows the noise of the comparison itself"),
		html:      fs.String("html", "", "also write the comparison as a self-contained HTML page: each operation's two latency distributions side by side"),
		speed:     fs.String("speed", "1", "captured traffic (a trace or a MongoDB recording): replay each round at this factor of the captured pace, or max: as fast as each side answers"),
		writes:    fs.String("writes", "none", "captured traffic: none (reads only: the copies and every round keep the same data), or aborted (each write in a transaction that is aborted)"),
	}
}

func abCommand(ctx context.Context, args []string, o IO) error {
	fs := newFlags("ab", "WORKLOAD --uri BASELINE --candidate-uri CANDIDATE [--out ab.json] [--html ab.html] [flags]", o)
	addStepSettings(fs, notInAB, map[string]string{
		"uri": "the baseline deployment (A)",
		"out": "write the comparison (verdict, every operation on both sides, every run) as JSON (mongoload.ab/v1) to this file",
	})
	af := addABFlags(fs)
	rf := addRunFlags(fs)
	addPlgmFlags(fs)
	if err := parseArgs(fs, args, 1); err != nil { // SetNumbers checks ab's own, all at once
		return err
	}
	var opts ab.Options
	if err := opts.SetNumbers(ab.Numbers{Threshold: *af.threshold, Alpha: *af.alpha, Rounds: *af.rounds, Verify: *af.verify}); err != nil {
		return err
	}
	if replay.IsTraffic(fs.Arg(0)) {
		return abTraffic(ctx, fs, af, opts, o)
	}
	if fs.Changed("speed") || fs.Changed("writes") {
		return withCode(ExitUsage, errors.New("--speed and --writes are for captured traffic (a trace or a MongoDB recording); a workload's pace is --rate or --concurrency"))
	}
	rf.hide = notInAB
	cfg, plan, _, err := rf.configure(fs.Arg(0), fs, o)
	if err != nil {
		return err
	}
	out := cfg.Run.Out
	opts.Config, opts.Plan, opts.CandidateURI = cfg, plan, *af.candidate
	opts.Parallel, opts.AllowSame, opts.Out, opts.HTML = *af.parallel, *af.sameURIs, out, *af.html
	opts.Log, opts.Version, opts.Inputs = o.Stderr, Version, rf.inputs(fs.Arg(0), fs)
	return abFinish(o, opts, cfg.Run.History, func(opts ab.Options) (*results.AB, error) { return ab.Run(ctx, opts) })
}

// abFinish runs the comparison, writes and prints it, and exits by its verdict.
func abFinish(o IO, opts ab.Options, history string, compare func(ab.Options) (*results.AB, error)) error {
	out := opts.Out
	opts.OnRun = func(side string, round int, r *run.Result) {
		if r.Result != nil {
			fmt.Fprintf(o.Stderr, "  round %d %s: %s ops/s, p50 %.3f ms, p99 %.3f ms\n", round, side,
				results.Thousands(int64(r.Result.Totals.Throughput)), r.Result.Totals.Latency.P50, r.Result.Totals.Latency.P99)
		}
	}
	file, runErr := compare(opts)
	if errors.Is(runErr, ab.ErrDataDiffer) {
		runErr = withCode(ExitResultsDiffer, runErr)
	}
	if file == nil {
		return runErr
	}
	if err := writeAB(o, file, out, opts.HTML); err != nil {
		return errors.Join(runErr, err)
	}
	if runErr != nil {
		return runErr
	}
	if err := keepHistory(o, history, file); err != nil {
		return err
	}
	return abExit(file)
}

// writeAB writes the file and the HTML page asked for and prints the report.
func writeAB(o IO, ab *results.AB, out, html string) error {
	write := func(path string) error { return results.WriteAB(path, ab) }
	return finish(o, &document{AB: ab}, out, "comparison", write, html, "", false, nil)
}

// abExit is the comparison's exit code: results that differ first, then
// a regression; an improvement or nothing is 0.
func abExit(ab *results.AB) error {
	switch ab.Verdict {
	case results.ABDiffers:
		return withCode(ExitResultsDiffer, errors.New("ab: "+ab.Summary))
	case results.ABRegressed:
		return withCode(ExitRegression, errors.New("ab: "+ab.Summary))
	case results.ABFailed:
		return withCode(ExitNothing, errors.New("ab: "+ab.Summary))
	}
	return nil
}
