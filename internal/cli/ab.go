package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mongoload/mongoload/internal/analysis"
	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/run"
)

// notInAB are the run settings ab does not take: it runs its own rounds
// and writes one file (--out) for both sides.
var notInAB = []string{"stages", "partition", "start-at", "slo", "repeat", "cooldown", "pass-quorum", "label",
	"monthly-cost", "currency", "target", "quiet", "hdr-log", "prometheus", "dashboard", "dashboard-linger", "fault", "explain"}

// The ranges of ab's own numbers.
var (
	roundsRange    = config.RoundsRange
	verifyRange    = config.VerifyRange
	thresholdRange = config.Range{Min: 0, AboveMin: true, Max: 10, What: "a share (0.10 or 10%)"}
	alphaRange     = config.Range{Min: 0, AboveMin: true, Max: 0.5, What: "a significance level (0.01)"}
)

type abFlags struct {
	candidate, html    *string
	threshold, alpha   *string
	rounds, verify     *int
	parallel, sameURIs *bool
}

func addABFlags(fs *pflag.FlagSet) *abFlags {
	d := analysis.DefaultABOptions()
	return &abFlags{
		candidate: fs.String("candidate-uri", "", "the candidate deployment (B) to compare with the baseline (--uri, A)"),
		rounds:    fs.Int("rounds", 4, "measured runs per side, alternating A B B A ... so that drift of the host cancels"),
		parallel:  fs.Bool("parallel", false, "run both sides at once each round (two deployments on their own hosts; needs an open-loop --rate)"),
		verify:    fs.Int("verify", 100, "operations of each shape run one at a time on both sides before the rounds, their results compared (0: none)"),
		threshold: fs.String("threshold", fmt.Sprintf("%.0f%%", 100*d.Threshold), "the smallest latency change flagged (a shift across the distribution), such as 10% or 0.1"),
		alpha:     fs.String("alpha", fmt.Sprint(d.Alpha), "the significance level of the test across rounds"),
		sameURIs:  fs.Bool("allow-same", false, "allow the same URI on both sides: an A/A run, which shows the noise of the comparison itself"),
		html:      fs.String("html", "", "also write the comparison as a self-contained HTML page: each operation's two latency distributions side by side"),
	}
}

// options reads ab's own numbers through the one rule for numbers.
func (f *abFlags) options() (analysis.ABOptions, error) {
	var es config.Errors
	var o analysis.ABOptions
	var err error
	o.Threshold, err = config.ParseShareFrom(config.FlagSource("threshold"), *f.threshold, thresholdRange)
	es.Add(err)
	o.Alpha, err = config.ParseNumber(config.FlagSource("alpha"), *f.alpha, alphaRange)
	es.Add(err)
	es.Add(config.CheckNumber(config.FlagSource("rounds"), float64(*f.rounds), roundsRange))
	es.Add(config.CheckNumber(config.FlagSource("verify"), float64(*f.verify), verifyRange))
	return o, es.Err()
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
	if err := parseArgs(fs, args, 1); err != nil { // options() checks its numbers, all at once
		return err
	}
	judge, err := af.options()
	if err != nil {
		return err
	}
	inner := o
	inner.Getenv = hideSettings(o.Getenv, notInAB)
	cfgA, planA, _, err := rf.configure(fs.Arg(0), fs, inner)
	if err != nil {
		return err
	}
	cfgB, planB, _, err := rf.configure(fs.Arg(0), fs, IO{Stdout: o.Stdout, Stderr: discardWarnings{}, Getenv: inner.Getenv})
	if err != nil {
		return err
	}
	if err := checkSides(cfgA, *af.candidate, *af.sameURIs); err != nil {
		return err
	}
	if *af.parallel && cfgA.Run.Rate <= 0 {
		return withCode(ExitUsage, errors.New("--parallel runs both sides at the same open-loop rate: give --rate (ops/s)"))
	}
	cfgB.Connection.URI = *af.candidate
	cfgB.Run.OperationSeed = cfgA.Run.OperationSeed // one operation sequence on both sides
	out := cfgA.Run.Out
	inputs := rf.inputs(fs.Arg(0), fs)
	for _, p := range []string{out, *af.html} {
		if p != "" {
			if err := results.CheckWritableAs("ab file", p, inputs...); err != nil {
				return withCode(ExitOutput, err)
			}
		}
	}
	cfgA.Run.Out, cfgB.Run.Out = "", ""
	ab, runErr := run.RunAB(ctx, run.AB{
		A: run.Side{Cfg: cfgA, Plan: planA}, B: run.Side{Cfg: cfgB, Plan: planB},
		Rounds: *af.rounds, Parallel: *af.parallel, VerifyShapes: *af.verify, Judge: judge, AllowSame: *af.sameURIs,
		Opts: run.Options{Log: o.Stderr, Version: Version, Inputs: inputs},
		OnRun: func(side string, round int, r *run.Result) {
			if r.Result != nil {
				fmt.Fprintf(o.Stderr, "  round %d %s: %s ops/s, p50 %.3f ms, p99 %.3f ms\n", round, side,
					results.Thousands(int64(r.Result.Totals.Throughput)), r.Result.Totals.Latency.P50, r.Result.Totals.Latency.P99)
			}
		},
	})
	if ab == nil {
		return runErr
	}
	if err := writeAB(o, ab, out, *af.html); err != nil {
		return errors.Join(runErr, err)
	}
	if runErr != nil {
		return runErr
	}
	return abExit(ab)
}

// checkSides refuses a comparison without a candidate, or of a deployment
// with itself unless asked for (an A/A run).
func checkSides(cfgA *config.Config, candidate string, allowSame bool) error {
	if candidate == "" {
		return withCode(ExitUsage, errors.New("ab compares two deployments: give the candidate with --candidate-uri (the baseline is --uri)"))
	}
	if err := mongodb.CheckURI(candidate); err != nil {
		return &config.Error{Kind: config.BadURI, Field: "--candidate-uri", Msg: err.Error()}
	}
	if strings.TrimSpace(candidate) == strings.TrimSpace(cfgA.Connection.URI) && !allowSame {
		return withCode(ExitUsage, errors.New("--uri and --candidate-uri are the same deployment: an A/A run (which shows the comparison's own noise: it should flag nothing) needs --allow-same"))
	}
	return nil
}

// writeAB writes the file and the HTML page asked for and prints the report.
func writeAB(o IO, ab *results.AB, out, html string) error {
	write := func(path string) error { return results.WriteAB(path, ab) }
	return finish(o, &document{AB: ab}, out, "comparison", write, html, "", false, nil)
}

// readAB reads path as an A/B file when it is one (ok false otherwise,
// and the caller reads it as what it is).
func readAB(path string) (ab *results.AB, ok bool, err error) {
	b, err := os.ReadFile(path)
	if err != nil || !results.IsAB(b) {
		return nil, false, nil
	}
	ab, err = results.ReadAB(path)
	return ab, true, err
}

// abInputs are an A/B file's two sides as inputs of a comparison.
func abInputs(path string, ab *results.AB) ([]analysis.CompareInput, error) {
	var out []analysis.CompareInput
	for _, side := range []string{"A", "B"} {
		r := ab.SideResult(side)
		if r == nil {
			return nil, withCode(ExitNothing, fmt.Errorf("%s: side %s measured nothing: give an A/B file whose rounds ran", path, side))
		}
		out = append(out, analysis.CompareInput{File: path + " (" + side + ")", Result: r})
	}
	return out, nil
}

// abExit is the comparison's exit code: results that differ first, then
// a regression; an improvement or nothing is 0.
func abExit(ab *results.AB) error {
	switch ab.Verdict {
	case results.ABDiffers:
		return withCode(ExitResultsDiffer, errors.New("ab: "+ab.Summary))
	case results.ABRegressed:
		return withCode(ExitRegression, errors.New("ab: "+ab.Summary))
	}
	return nil
}

// discardWarnings swallows the second configuration's warnings: the
// first one's already said them.
type discardWarnings struct{}

func (discardWarnings) Write(b []byte) (int, error) { return len(b), nil }

// isABFile reports whether path holds an A/B file.
func isABFile(path string) bool {
	_, ok, _ := readAB(path)
	return ok
}
