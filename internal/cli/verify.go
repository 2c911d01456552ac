package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/run"
	"github.com/mongoload/mongoload/internal/verify"
)

// verifySettings are the settings (flag and MONGOLOAD_* variable) that
// verify takes: only how to connect.
var verifySettings = []string{"uri", "username", "password", "auth-source", "app-name", "connect-timeout", "server-selection-timeout", "op-timeout"}

// verifyCommand checks, after a run, the invariants that a workload's
// transactions must keep, and exits with ExitInvariant when one is broken.
func verifyCommand(ctx context.Context, args []string, o IO) error {
	fs := newFlags("verify", "payments [flags]", o)
	addSettingsOf(fs, verifySettings)
	database := fs.String("database", "payments", "the database the workload ran in ["+config.EnvName("database")+"]")
	if err := parse(fs, args, 1); err != nil {
		return err
	}
	src := sources(fs, o)
	if v, _, ok := src.Value("database"); ok {
		*database = v
	}
	name := fs.Arg(0)
	schema, err := verify.SchemaOf(name)
	if err != nil {
		return withCode(ExitUsage, err)
	}
	cfg, err := resolveSettings(fs, o, verifySettings)
	if err != nil {
		return err
	}
	f, hosts, err := run.Check(ctx, o.Stderr, cfg, name, *database, schema)
	if err != nil {
		return err
	}
	return printVerdicts(o, name, *database, hosts, f)
}

// printVerdicts prints one line per invariant (verify.Write) and returns
// an ExitInvariant error when one is broken.
func printVerdicts(o IO, name, database, hosts string, f *verify.Figures) error {
	if failed, n := verify.Write(o.Stdout, name, database, hosts, f); len(failed) > 0 {
		return withCode(ExitInvariant, fmt.Errorf("verify %s: %d of %d invariants broken: %s", name, len(failed), n, strings.Join(failed, ", ")))
	}
	return nil
}
