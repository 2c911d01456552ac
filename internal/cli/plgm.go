package cli

import (
	"context"
	"fmt"

	"github.com/mongoload/mongoload/internal/input"
	"github.com/mongoload/mongoload/internal/plgm"
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
	yaml, err := input.ImportPlgm(plgm.Options{CollectionsPath: *cols, QueriesPath: *queries, ConfigPath: *cfgPath, Getenv: o.Getenv, FixMisses: *fix},
		func(s string) { fmt.Fprintln(o.Stderr, s) })
	if err != nil {
		return err
	}
	_, err = o.Stdout.Write(yaml)
	return err
}
