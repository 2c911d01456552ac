package cli

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/input"
	"github.com/mongoload/mongoload/internal/workload"
	"github.com/mongoload/mongoload/internal/ycsb"
)

// flags.go: the flag sets of the commands and the flags they share.

var errHelp = errors.New("help shown")

// newFlags makes a command's flag set; parse errors become usage errors.
func newFlags(name, args string, o IO) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(o.Stderr)
	fs.SortFlags = false
	fs.Usage = func() {
		fmt.Fprintf(o.Stdout, "Usage: mongoload %s %s\n\nFlags:\n%s", name, args, fs.FlagUsages())
	}
	return fs
}

// parse parses args, allows maxArgs arguments, and checks every numeric
// flag given against its range (numbers.go): every refusal at once.
func parse(fs *pflag.FlagSet, args []string, maxArgs int) error {
	if err := parseArgs(fs, args, maxArgs); err != nil {
		return err
	}
	return flagNumbers(fs).Err()
}

// parseArgs is parse without the numbers, for a command that checks them
// with its other values, to list every bad one at once (findmax).
func parseArgs(fs *pflag.FlagSet, args []string, maxArgs int) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return errHelp
		}
		if strings.HasPrefix(err.Error(), "invalid argument ") {
			// a value pflag could not read ("1e400" for a float, "x"
			// for an int): an invalid value, not a bad command line
			return &config.Error{Kind: config.Invalid, Msg: err.Error()}
		}
		return withCode(ExitUsage, unknownSetting(fs, err))
	}
	if fs.NArg() > maxArgs {
		return withCode(ExitUsage, fmt.Errorf("too many arguments: %s", strings.Join(fs.Args(), " ")))
	}
	return nil
}

// unknownSetting explains a setting flag this command does not take
// ("unknown flag: --rate: load does not read that setting ..."); other
// errors are returned as they are.
func unknownSetting(fs *pflag.FlagSet, err error) error {
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok {
		return err
	}
	for _, s := range config.Settings {
		if s.Flag == name && !s.NoFlag {
			return fmt.Errorf("%w: %s does not read that setting (mongoload %s --help lists those it does)", err, fs.Name(), fs.Name())
		}
	}
	return err
}

// replayOnly are the settings only replay reads: what a trace may send
// beyond data operations. A workload's operations are data operations, so
// the commands that run one do not list them.
var replayOnly = []string{"replay-ddl", "replay-admin"}

// addSettings registers every config.Setting a workload's run reads as a flag of fs.
func addSettings(fs *pflag.FlagSet) {
	addSettingsWhere(fs, func(flag string) bool { return !slices.Contains(replayOnly, flag) }, nil)
}

// addSettingsOf registers the settings named in only (all when nil) as
// flags, so that a command's --help lists only the flags it reads.
func addSettingsOf(fs *pflag.FlagSet, only []string) {
	addSettingsWhere(fs, func(flag string) bool { return only == nil || slices.Contains(only, flag) }, nil)
}

// addSettingsWhere registers the settings whose flag keep keeps, with the
// usage text of usage[flag] where the command words it its own way.
func addSettingsWhere(fs *pflag.FlagSet, keep func(flag string) bool, usage map[string]string) {
	for _, s := range config.Settings {
		if s.NoFlag || !keep(s.Flag) {
			continue
		}
		f := fs.VarPF(&settingValue{join: s.Join, numeric: s.Range != nil}, s.Flag, "", cmp.Or(usage[s.Flag], s.Usage)+s.Repeatable()+" ["+s.Env()+"]")
		if s.Bool {
			f.NoOptDefVal = "true"
		}
	}
}

// settingValue only remembers the text; it is applied after the file and the
// environment, so that flags win whatever the order of loading. A
// repeatable flag (join set) keeps every value, joined; any other, the last.
type settingValue struct {
	vs      []string
	join    string
	numeric bool // its help says "number" (config.Setting.Range)
}

func (s *settingValue) String() string {
	if s.join == "" {
		if len(s.vs) == 0 {
			return ""
		}
		return s.vs[len(s.vs)-1]
	}
	return strings.Join(s.vs, s.join)
}

func (s *settingValue) Set(v string) error { s.vs = append(s.vs, v); return nil }
func (s *settingValue) Type() string {
	if s.numeric {
		return "number"
	}
	return "value"
}

// given reads fs as config.Resolve's command line: a flag's value where
// it was given.
func given(fs *pflag.FlagSet) config.Flags {
	return func(name string) (string, bool) {
		if f := fs.Lookup(name); f != nil && f.Changed {
			return f.Value.String(), true
		}
		return "", false
	}
}

// sources are a command's configuration layers (config.Resolve): o's
// environment and fs's flags over the defaults.
func sources(fs *pflag.FlagSet, o IO) config.Sources {
	return config.Sources{Env: o.Getenv, Flags: given(fs)}
}

// runFlags are run's flags for YCSB property files and output formats.
type runFlags struct {
	ycsbFlags
	format *string
	// hide names the settings the command reads itself, in its own way
	// (a sweep's levels), or does not take (config.Sources.Hide).
	hide []string
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

// The plgm flags point at a workload written for Percona's plgm.
var plgmFlagNames = []string{"plgm-collections", "plgm-queries", "plgm-config"}

func addPlgmFlags(fs *pflag.FlagSet) {
	fs.String("plgm-collections", "", "run plgm collection definitions: a .json file or a directory of them [PLGM_COLLECTIONS_PATH]")
	fs.String("plgm-queries", "", "plgm query definitions: a .json file or a directory [PLGM_QUERIES_PATH]")
	fs.String("plgm-config", "", "plgm's config.yaml (mix percentages, concurrency, duration, seeding, connection)")
}

// plgmPaths returns the plgm flags of fs; ok is false when none is set.
func plgmPaths(fs *pflag.FlagSet) (paths [3]string, ok bool) {
	for i, name := range plgmFlagNames {
		if f := fs.Lookup(name); f != nil {
			paths[i] = f.Value.String()
			ok = ok || paths[i] != ""
		}
	}
	return paths, ok
}

// configure resolves a measuring command's configuration and plan
// (resolve) and how it reports (output).
func (f *runFlags) configure(ref string, fs *pflag.FlagSet, o IO) (*config.Config, *workload.Plan, output, error) {
	cfg, plan, w, err := resolve(ref, fs, o, hiding(f.hide))
	if err != nil {
		return nil, nil, output{}, err
	}
	out, err := f.output(cfg, plan, w)
	return cfg, plan, out, err
}

// hiding keeps the settings a command reads itself, or does not take,
// out of its layers (config.Sources.Hide).
func hiding(flags []string) func(*input.Given) {
	return func(g *input.Given) { g.Hide = flags }
}

// reading reads only the variables of the settings a command takes
// (config.Sources.Only): the others' are not its settings.
func reading(flags ...string) func(*input.Given) {
	return func(g *input.Given) { g.Only = flags }
}

// output is how a run with these flags reports (--format), with YCSB's
// options (from the property files when the workload came from them, w).
func (f *runFlags) output(cfg *config.Config, plan *workload.Plan, w *ycsb.Workload) (output, error) {
	out := output{format: *f.format}
	if out.format != "console" && out.format != "ycsb" {
		return out, withCode(ExitUsage, fmt.Errorf("--format %q: choose console or ycsb%s", out.format, config.DidYouMean(out.format, []string{"console", "ycsb"})))
	}
	out.status.Operations, out.status.Types = cfg.Run.Operations, plan.OpTypes()
	if w != nil {
		out.status.StatusInterval, out.ycsb.Percentiles = w.StatusInterval, w.Percentiles
	}
	return out, nil
}
