package cli

import (
	"context"
	"fmt"
	"slices"

	"github.com/spf13/pflag"

	"github.com/mongoload/mongoload/internal/ab"
	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/run"
)

// abTrafficTakes are the settings ab takes on captured traffic besides its
// own: replay's (the connection, the ownership rule, the outputs).
var abTrafficTakes = append(slices.Clone(replaySettings), "candidate-uri", "rounds", "verify", "threshold", "alpha",
	"allow-same", "html", "parallel", "speed", "writes")

// abTraffic is ab on a trace or a MongoDB recording: the traffic is the
// workload (its operations, values and timing), so a workload's settings
// are refused by name.
func abTraffic(ctx context.Context, fs *pflag.FlagSet, af *abFlags, opts ab.Options, o IO) error {
	var bad error
	fs.Visit(func(f *pflag.Flag) {
		if !slices.Contains(abTrafficTakes, f.Name) && bad == nil {
			bad = withCode(ExitUsage, fmt.Errorf("--%s does not apply to ab on captured traffic: the trace is the workload (its operations, their values and their timing; --speed paces it)", f.Name))
		}
	})
	if bad != nil {
		return bad
	}
	speed, err := config.ParseSpeed(config.FlagSource("speed"), *af.speed)
	if err != nil {
		return err
	}
	writes := map[string]string{"none": ab.WritesNotSent, "aborted": ab.WritesAborted}[*af.writes]
	if writes == "" {
		return &config.Error{Kind: config.Invalid, Field: "--writes", Msg: fmt.Sprintf("%q: give none (reads only) or aborted (each write in a transaction that is aborted)", *af.writes)}
	}
	src := sources(fs, o)
	src.Check = run.CheckConnection
	cfg, err := config.Resolve(src)
	if err != nil {
		return err
	}
	opts.Config, opts.CandidateURI, opts.Parallel, opts.AllowSame = cfg, *af.candidate, *af.parallel, *af.sameURIs
	opts.Out, opts.HTML, opts.Log, opts.Version, opts.Inputs = cfg.Run.Out, *af.html, o.Stderr, Version, []string{fs.Arg(0)}
	tr := ab.Traffic{Path: fs.Arg(0), Speed: speed, Writes: writes}
	return abFinish(o, opts, cfg.Run.History, func(opts ab.Options) (*results.AB, error) { return ab.RunTraffic(ctx, opts, tr) })
}
