package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/workload"
	"github.com/mongoload/mongoload/internal/ycsb"
)

// runFlags are run's flags for YCSB property files and output formats.
type runFlags struct {
	ycsbFlags
	format *string
}

// ycsbFlags name YCSB property files as the workload: run and load take
// them, as YCSB's own run and load phases do.
type ycsbFlags struct {
	ycsb  *[]string // -P/--ycsb property files
	props *[]string // -p key=value
}

// addYCSBFlags registers --ycsb (-P, as YCSB spells it) and -p; verb is
// what the command does with the workload ("run", "load").
func addYCSBFlags(fs *pflag.FlagSet, verb string) ycsbFlags {
	return ycsbFlags{
		ycsb:  fs.StringArrayP("ycsb", "P", nil, verb+" a YCSB property file (such as workloads/workloada) instead of a workload; repeatable, later files win"),
		props: fs.StringArrayP("property", "p", nil, "with --ycsb: set a YCSB property, name=value, over the files (repeatable)"),
	}
}

// addRunFlags registers --ycsb (-P, as YCSB spells it), -p and --format.
func addRunFlags(fs *pflag.FlagSet) *runFlags {
	return &runFlags{
		ycsbFlags: addYCSBFlags(fs, "run"),
		format:    fs.String("format", "console", "report format: console, or ycsb for YCSB's status lines and [OVERALL]/[READ]... summary"),
	}
}

// inputs are the files a run or sweep reads (its workload file, -P and
// plgm files): an output must not overwrite one of them.
func (f *runFlags) inputs(ref string, fs *pflag.FlagSet) []string {
	var in []string
	if ref != "" {
		in = append(in, ref)
	}
	in = append(in, *f.ycsb...)
	paths, _ := plgmPaths(fs)
	for _, p := range paths {
		if p != "" {
			in = append(in, p)
		}
	}
	return in
}

// resolve builds the run's configuration from a workload (or plgm
// definitions) or, with --ycsb, from YCSB properties; then the environment
// and the flags apply as ever.
// Warnings about YCSB properties go to stderr, one line each.
func (f *runFlags) resolve(ref string, fs *pflag.FlagSet, o IO) (*config.Config, *workload.Plan, output, error) {
	out := output{format: *f.format}
	if out.format != "console" && out.format != "ycsb" {
		return nil, nil, out, withCode(ExitUsage, fmt.Errorf("--format %q: choose console or ycsb%s", out.format, config.DidYouMean(out.format, []string{"console", "ycsb"})))
	}
	cfg, plan, w, err := f.ycsbFlags.resolve(ref, fs, o)
	if err != nil {
		return nil, nil, out, err
	}
	out.ycsb.Operations, out.ycsb.Types = cfg.Run.Operations, plan.OpTypes()
	if w != nil {
		out.ycsb.StatusInterval, out.ycsb.Percentiles = w.StatusInterval, w.Percentiles
	}
	return cfg, plan, out, nil
}

// resolve builds the configuration from a workload (or plgm definitions)
// or, with --ycsb, from YCSB properties (w is then set); the environment and
// the flags apply over either. Warnings about YCSB properties go to stderr,
// one line each.
func (f ycsbFlags) resolve(ref string, fs *pflag.FlagSet, o IO) (*config.Config, *workload.Plan, *ycsb.Workload, error) {
	if len(*f.ycsb) == 0 {
		if len(*f.props) > 0 {
			return nil, nil, nil, withCode(ExitUsage, fmt.Errorf("-p sets YCSB properties: give the property file with --ycsb (-P), for example -P workloads/workloada"))
		}
		cfg, plan, err := resolveWorkload(ref, fs, o)
		return cfg, plan, nil, err
	}
	if _, plgm := plgmPaths(fs); ref != "" || plgm {
		if ref == "" {
			ref = "plgm definitions"
		}
		return nil, nil, nil, withCode(ExitUsage, fmt.Errorf("give either a workload (%s) or --ycsb property files, not both", ref))
	}
	cfg, w, warnings, err := ycsb.Load(*f.ycsb, *f.props)
	for _, msg := range warnings {
		fmt.Fprintln(o.Stderr, "warning: "+msg)
	}
	if err != nil {
		return nil, nil, nil, err
	}
	cfg, plan, err := layer(cfg, fs, o.Getenv)
	if err != nil {
		return nil, nil, nil, err
	}
	return cfg, plan, w, nil
}

// redactArgs returns args with the password of every connection string
// (--uri, -p mongodb.url=...) and the value of --password hidden.
func redactArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		switch {
		case i > 0 && args[i-1] == "--password":
			a = config.Redacted
		case strings.HasPrefix(a, "--password="):
			a = "--password=" + config.Redacted
		default:
			if at := strings.Index(a, "mongodb"); at >= 0 && strings.Contains(a[at:], "://") {
				a = a[:at] + config.RedactURI(a[at:])
			}
		}
		out[i] = a
	}
	return out
}
