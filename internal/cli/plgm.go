package cli

import (
	"bytes"
	"context"
	"fmt"

	"github.com/mongoload/mongoload/internal/plgm"
	"github.com/mongoload/mongoload/internal/run"
	"github.com/mongoload/mongoload/internal/workload"
)

// importCommand converts another tool's workload into mongoload YAML on
// stdout: mongoload import plgm --collections DIR --queries DIR > w.yaml.
func importCommand(_ context.Context, args []string, o IO) error {
	if len(args) == 0 || args[0] != "plgm" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
			fmt.Fprintln(o.Stdout, "Usage: mongoload import plgm --collections PATH [--queries PATH] [--config config.yaml] [--fix-misses] > workload.yaml")
			return nil
		}
		return withCode(ExitUsage, fmt.Errorf("import what? the only format is plgm: mongoload import plgm --collections DIR --queries DIR > workload.yaml"))
	}
	fs := newFlags("import plgm", "--collections PATH [--queries PATH] [--config config.yaml] [--fix-misses] > workload.yaml", o)
	cols := fs.String("collections", "", "plgm collection definitions: a .json file or a directory of them [PLGM_COLLECTIONS_PATH]")
	queries := fs.String("queries", "", "plgm query definitions: a .json file or a directory [PLGM_QUERIES_PATH]")
	cfgPath := fs.String("config", "", "plgm's config.yaml (mix percentages, concurrency, duration, seeding, connection)")
	fix := fs.Bool("fix-misses", false, "replace plgm's fallback updates and deletes, whose {_id: \"val-NNN\"} filter never matches ObjectId ids, by ones that hit existing documents (integer keys as _id); the default stays faithful to plgm")
	if err := parse(fs, args[1:], 0); err != nil {
		return err
	}
	res, err := plgm.Convert(plgm.Options{CollectionsPath: *cols, QueriesPath: *queries, ConfigPath: *cfgPath, Getenv: o.Getenv, FixMisses: *fix})
	if err != nil {
		return err
	}
	res.Warnings = append(res.Warnings, missWarnings(res)...)
	for _, w := range res.Warnings {
		fmt.Fprintln(o.Stderr, "warning: plgm: "+w.String())
	}
	if res.Config.Connection.Password != "" {
		fmt.Fprintln(o.Stderr, "warning: plgm: PLGM_PASSWORD is not written to the workload: set MONGOLOAD_PASSWORD when you run it")
	}
	var buf bytes.Buffer
	if err := plgm.WriteYAML(&buf, res); err != nil {
		return err
	}
	if err := workload.CheckYAML(buf.Bytes(), "imported workload"); err != nil {
		return fmt.Errorf("the converted workload does not validate (a bug: please report it with the definitions): %w", err)
	}
	_, err = o.Stdout.Write(buf.Bytes())
	return err
}

// missWarnings warn of converted operations whose filter cannot reach the
// collection's documents (workload.MissCause, the rule a run's report
// uses), but for those the conversion warned of already.
func missWarnings(res *plgm.Result) []plgm.Warning {
	warned := map[string]bool{}
	for _, w := range res.Warnings {
		warned[w.Field] = true
	}
	cfg := res.Config
	var out []plgm.Warning
	for _, op := range cfg.Operations {
		if warned[op.Name] {
			continue
		}
		for i, col := range cfg.Collections {
			if col.Name != op.Collection && col.Namespace() != op.Collection {
				continue
			}
			if c := workload.MissCause(op.Filter, col.Template, run.SeedTarget(cfg, i), nil); c != "" {
				out = append(out, plgm.Warning{Field: op.Name, Msg: "its filter can find nothing, as in plgm: " + c})
			}
		}
	}
	return out
}
