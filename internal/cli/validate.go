package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/mongoload/mongoload/internal/builtin"
	"github.com/mongoload/mongoload/internal/config"
)

func validateCommand(_ context.Context, args []string, o IO) error {
	fs := newFlags("validate", "[WORKLOAD] [flags]", o)
	addSettings(fs)
	if err := parse(fs, args, 1); err != nil {
		return err
	}
	cfg, plan, _, err := resolve(fs.Arg(0), fs, o)
	if err != nil {
		return err
	}
	watchers := ""
	if n := len(plan.Watchers); n > 0 {
		watchers = fmt.Sprintf(", %d watcher(s)", n)
	}
	fmt.Fprintf(o.Stdout, "%s: valid: %d collection(s), %d operation(s)%s\n", cfg.Source, len(plan.Collections), len(plan.Ops), watchers)
	for _, out := range plan.Outputs {
		fmt.Fprintf(o.Stdout, "note: %s: a run refuses it unless mongoload created %s (or --allow-existing says to write into it anyway)\n", out.Describe(), out.Collection.Namespace())
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
