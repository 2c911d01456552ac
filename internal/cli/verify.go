package cli

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/verify"
)

// verifiable are the built-in workloads whose invariants verify knows.
var verifiable = map[string]verify.Schema{
	"payments":       verify.PaymentsSchema,
	"payments-heavy": verify.PaymentsSchema,
}

// verifySettings are the settings (flag and MONGOLOAD_* variable) that
// verify takes: only how to connect.
var verifySettings = []string{"uri", "username", "password", "auth-source", "app-name", "connect-timeout", "server-selection-timeout", "op-timeout"}

// verifyConnection returns the config.Settings named in verifySettings.
func verifyConnection() []config.Setting {
	var out []config.Setting
	for _, s := range config.Settings {
		if slices.Contains(verifySettings, s.Flag) {
			out = append(out, s)
		}
	}
	return out
}

// verifyConfig is the connection verify uses: defaults < MONGOLOAD_*
// variables < flags, as for a run.
func verifyConfig(fs *pflag.FlagSet, env func(string) (string, bool)) (*config.Config, error) {
	cfg := config.Default()
	var es config.Errors
	for _, s := range verifyConnection() {
		if v, ok := env(s.Env()); ok {
			if err := s.Set(cfg, v); err != nil {
				es = append(es, &config.Error{Kind: config.Invalid, Field: s.Env(), Msg: err.Error()})
			}
		}
		if f := fs.Lookup(s.Flag); f != nil && f.Changed {
			if err := s.Set(cfg, f.Value.String()); err != nil {
				es = append(es, &config.Error{Kind: config.Invalid, Field: "--" + s.Flag, Msg: err.Error()})
			}
		}
	}
	if err := es.Err(); err != nil {
		return nil, err
	}
	if err := mongodb.CheckURI(cfg.Connection.URI); err != nil {
		return nil, err
	}
	return cfg, nil
}

// verifyCommand checks, after a run, the invariants that a workload's
// transactions must keep, and exits with ExitInvariant when one is broken.
func verifyCommand(ctx context.Context, args []string, o IO) error {
	fs := newFlags("verify", "payments [flags]", o)
	for _, s := range verifyConnection() {
		if !s.NoFlag {
			fs.VarP(&settingValue{}, s.Flag, "", s.Usage+" ["+s.Env()+"]")
		}
	}
	database := fs.String("database", "payments", "the database the workload ran in [MONGOLOAD_DATABASE]")
	if err := parse(fs, args, 1); err != nil {
		return err
	}
	if v, ok := o.Getenv("MONGOLOAD_DATABASE"); ok && !fs.Changed("database") {
		*database = v
	}
	name := fs.Arg(0)
	schema, ok := verifiable[name]
	if !ok {
		names := sortedNames(verifiable)
		return withCode(ExitUsage, fmt.Errorf("verify: give the workload whose invariants to check: %s%s",
			strings.Join(names, ", "), config.DidYouMean(name, names)))
	}
	cfg, err := verifyConfig(fs, o.Getenv)
	if err != nil {
		return err
	}
	client, err := connect(ctx, o, cfg)
	if err != nil {
		return err
	}
	defer client.Close()
	f, err := verify.ReadPayments(ctx, client, *database, schema)
	switch {
	case err != nil && ctx.Err() != nil:
		return withCode(ExitInterrupted, fmt.Errorf("verify interrupted"))
	case err != nil:
		return withCode(ExitServerFailure, fmt.Errorf("verify %s: %w", name, err))
	case f.Cards() == 0:
		return withCode(ExitUsage, fmt.Errorf("verify %s: %s.%s holds no card: nothing to verify (run 'mongoload run %s' first, or name its database with --database)",
			name, *database, schema.Cards, name))
	}
	return printVerdicts(o, name, *database, client.Hosts, f)
}

// printVerdicts prints one line per invariant (verify.Write) and returns
// an ExitInvariant error when one is broken.
func printVerdicts(o IO, name, database, hosts string, f *verify.Figures) error {
	if failed, n := verify.Write(o.Stdout, name, database, hosts, f); len(failed) > 0 {
		return withCode(ExitInvariant, fmt.Errorf("verify %s: %d of %d invariants broken: %s", name, len(failed), n, strings.Join(failed, ", ")))
	}
	return nil
}

func sortedNames(m map[string]verify.Schema) []string { return slices.Sorted(maps.Keys(m)) }
