package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"

	"github.com/mongoload/mongoload/internal/builtin"
	"github.com/mongoload/mongoload/internal/config"
)

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

func parse(fs *pflag.FlagSet, args []string, maxArgs int) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return errHelp
		}
		return withCode(ExitUsage, unknownSetting(fs, err))
	}
	if fs.NArg() > maxArgs {
		return withCode(ExitUsage, fmt.Errorf("too many arguments: %s", strings.Join(fs.Args(), " ")))
	}
	return nil
}

func validateCommand(_ context.Context, args []string, o IO) error {
	fs := newFlags("validate", "[WORKLOAD] [flags]", o)
	addSettings(fs)
	if err := parse(fs, args, 1); err != nil {
		return err
	}
	cfg, plan, err := resolve(fs.Arg(0), fs, o.Getenv)
	if err != nil {
		return err
	}
	warnDeprecated(o, cfg)
	fmt.Fprintf(o.Stdout, "%s: valid: %d collection(s), %d operation(s)\n", cfg.Source, len(plan.Collections), len(plan.Ops))
	for _, out := range plan.Outputs {
		fmt.Fprintf(o.Stdout, "note: %s: a run refuses it unless mongoload created %s (or --allow-existing, or --drop)\n", out.Describe(), out.Collection.Namespace())
	}
	return nil
}

func showCommand(_ context.Context, args []string, o IO) error {
	fs := newFlags("show", "NAME", o)
	if err := parse(fs, args, 1); err != nil {
		return err
	}
	name := fs.Arg(0)
	if name == "" {
		name = "default"
	}
	data, ok := builtin.Get(name)
	if !ok {
		return withCode(ExitUsage, fmt.Errorf("no built-in workload %q (built-ins: %s)%s", name, strings.Join(builtin.Names(), ", "), config.DidYouMean(name, builtin.Names())))
	}
	_, err := o.Stdout.Write(data)
	return err
}

func workloadsCommand(_ context.Context, args []string, o IO) error {
	fs := newFlags("workloads", "", o)
	if err := parse(fs, args, 0); err != nil {
		return err
	}
	for _, name := range builtin.Names() {
		data, _ := builtin.Get(name)
		cfg, err := config.Parse(data, "builtin:"+name)
		desc := ""
		if err == nil {
			desc = cfg.Description
		}
		fmt.Fprintf(o.Stdout, "%-16s %s\n", name, desc)
	}
	return nil
}

// printConfig writes the effective configuration, password redacted.
func printConfig(o IO, cfg *config.Config) error {
	enc := yaml.NewEncoder(o.Stdout)
	enc.SetIndent(2)
	fmt.Fprintf(o.Stdout, "# effective configuration of %s\n", cfg.Source)
	if err := enc.Encode(cfg.Redact()); err != nil {
		return err
	}
	return enc.Close()
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

// warnDeprecated prints a warning per setting used under an old name.
func warnDeprecated(o IO, cfg *config.Config) {
	if cfg == nil {
		return
	}
	for _, d := range cfg.Deprecations() {
		fmt.Fprintln(o.Stderr, "warning: "+d)
	}
}
