// Package input reads a command's workload from where it was given — a
// file or a built-in, plgm definitions, YCSB property files — applies the
// environment and the flags over it (config.Resolve) and compiles it. It
// prints nothing: warnings go to the caller's Warn, one line each.
package input

import (
	"fmt"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/plgm"
	"github.com/mongoload/mongoload/internal/run"
	"github.com/mongoload/mongoload/internal/workload"
	"github.com/mongoload/mongoload/internal/ycsb"
)

// Given is what a command line gave for its workload and over it.
type Given struct {
	Ref              string   // a workload file or a built-in's name
	YCSB, Properties []string // -P property files and -p properties
	Plgm             [3]string
	IsPlgm           bool // plgm definitions were given: Plgm holds collections, queries, config
	Env              func(string) (string, bool)
	Flags            config.Flags
	Hide             []string // the settings the command reads itself (config.Sources.Hide)
	Only             []string // the settings the command reads, by variable or flag; nil: all (config.Sources.Only)
	Warn             func(string)
}

func usage(format string, args ...any) error {
	return &config.Error{Kind: config.Usage, Msg: fmt.Sprintf(format, args...)}
}

// Workload builds the effective configuration, validated, and its plan:
// defaults < file < environment < flags (for plgm, PLGM_* < MONGOLOAD_* <
// flags). w is set for YCSB property files. Warnings (conversions,
// deprecated settings) go to g.Warn.
func Workload(g Given) (cfg *config.Config, plan *workload.Plan, w *ycsb.Workload, err error) {
	ref := g.Ref
	switch {
	case len(g.YCSB) == 0 && len(g.Properties) > 0:
		return nil, nil, nil, usage("-p sets YCSB properties: give the property file with --ycsb (-P), for example -P workloads/workloada")
	case len(g.YCSB) > 0 && (ref != "" || g.IsPlgm):
		if ref == "" {
			ref = "plgm definitions"
		}
		return nil, nil, nil, usage("give either a workload (%s) or --ycsb property files, not both", ref)
	case g.IsPlgm && ref != "":
		return nil, nil, nil, usage("give a workload (%s) or plgm definitions (--plgm-collections), not both", ref)
	case len(g.YCSB) > 0:
		var warnings []string
		cfg, w, warnings, err = ycsb.Load(g.YCSB, g.Properties)
		for _, msg := range warnings {
			g.Warn("warning: " + msg)
		}
	case g.IsPlgm:
		var res *plgm.Result
		if res, err = plgm.Convert(plgm.Options{CollectionsPath: g.Plgm[0], QueriesPath: g.Plgm[1], ConfigPath: g.Plgm[2], Getenv: g.Env}); err == nil {
			for _, pw := range res.Warnings {
				g.Warn("warning: plgm: " + pw.String())
			}
			cfg = res.Config
		}
	default:
		cfg, err = config.LoadNamed(ref)
	}
	if err != nil {
		return nil, nil, nil, err
	}
	cfg, plan, err = layer(cfg, g)
	if cfg != nil {
		for _, d := range cfg.Deprecations() {
			g.Warn("warning: " + d)
		}
	}
	return cfg, plan, w, err
}

// layer applies the environment and the flags over a workload read from
// anywhere, validates the result (config.Resolve) and compiles it.
func layer(cfg *config.Config, g Given) (*config.Config, *workload.Plan, error) {
	cfg, err := config.Resolve(config.Sources{File: cfg, Env: g.Env, Flags: g.Flags, Hide: g.Hide, Only: g.Only, Workload: true, Check: run.CheckConfig})
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
