package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/pflag"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/plgm"
	"github.com/mongoload/mongoload/internal/run"
	"github.com/mongoload/mongoload/internal/workload"
	"github.com/mongoload/mongoload/internal/ycsb"
)

// resolve builds a command's effective configuration, validated, and
// compiles it into a plan. The workload is a file or a built-in (ref),
// plgm definitions (--plgm-*, converted) or YCSB property files (-P, then
// w is set); the environment and the flags apply over it (defaults < file
// < environment < flags; for plgm, PLGM_* < MONGOLOAD_* < flags). Warnings
// (conversions, deprecated settings) go to stderr, one line each.
// hide names the settings the command reads itself (config.Sources.Hide).
func resolve(ref string, fs *pflag.FlagSet, o IO, hide ...string) (cfg *config.Config, plan *workload.Plan, w *ycsb.Workload, err error) {
	files, _ := fs.GetStringArray("ycsb") // nil where the command has no such flag
	props, _ := fs.GetStringArray("property")
	paths, isPlgm := plgmPaths(fs)
	switch {
	case len(files) == 0 && len(props) > 0:
		return nil, nil, nil, withCode(ExitUsage, errors.New("-p sets YCSB properties: give the property file with --ycsb (-P), for example -P workloads/workloada"))
	case len(files) > 0 && (ref != "" || isPlgm):
		if ref == "" {
			ref = "plgm definitions"
		}
		return nil, nil, nil, withCode(ExitUsage, fmt.Errorf("give either a workload (%s) or --ycsb property files, not both", ref))
	case isPlgm && ref != "":
		return nil, nil, nil, withCode(ExitUsage, fmt.Errorf("give a workload (%s) or plgm definitions (--plgm-collections), not both", ref))
	case len(files) > 0:
		var warnings []string
		cfg, w, warnings, err = ycsb.Load(files, props)
		for _, msg := range warnings {
			fmt.Fprintln(o.Stderr, "warning: "+msg)
		}
	case isPlgm:
		var res *plgm.Result
		if res, err = plgm.Convert(plgm.Options{CollectionsPath: paths[0], QueriesPath: paths[1], ConfigPath: paths[2], Getenv: o.Getenv}); err == nil {
			for _, pw := range res.Warnings {
				fmt.Fprintln(o.Stderr, "warning: plgm: "+pw.String())
			}
			cfg = res.Config
		}
	default:
		cfg, err = config.LoadNamed(ref)
	}
	if err != nil {
		return nil, nil, nil, err
	}
	cfg, plan, err = layer(cfg, fs, o.Getenv, hide)
	warnDeprecated(o, cfg)
	return cfg, plan, w, err
}

// layer applies the environment and the flags over a workload read from
// anywhere (a file, a built-in, plgm definitions), validates the result
// (config.Resolve) and compiles it.
func layer(cfg *config.Config, fs *pflag.FlagSet, env func(string) (string, bool), hide []string) (*config.Config, *workload.Plan, error) {
	cfg, err := config.Resolve(config.Sources{File: cfg, Env: env, Flags: given(fs), Hide: hide, Workload: true, Check: run.CheckConfig})
	if err != nil {
		return nil, nil, err
	}
	cfg.Run.PickOperationSeed()
	if cfg.Run.RateScale > 0 {
		cfg.Run.ApplyRateScale() // --rate-scale: the captured (or given) rate, times it
	}
	plan, err := workload.Compile(cfg)
	if err != nil {
		return nil, nil, err
	}
	return cfg, plan, nil
}

// describeError renders err as one line per problem, for stderr.
func describeError(err error) string {
	var es config.Errors
	if errors.As(err, &es) {
		return es.Error()
	}
	return err.Error()
}

// warnDeprecated prints a warning per setting used under an old name.
func warnDeprecated(o IO, cfg *config.Config) {
	if cfg == nil {
		return
	}
	for _, d := range cfg.Deprecations() {
		fmt.Fprintln(o.Stderr, "warning: "+d)
	}
}
