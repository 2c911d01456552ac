package cli

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mongoload/mongoload/internal/analysis"
	"github.com/mongoload/mongoload/internal/builtin"
	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/workload"
)

// addSettings registers every config.Setting as a flag of fs.
func addSettings(fs *pflag.FlagSet) { addSettingsOf(fs, nil) }

// addSettingsOf registers the settings named in only (all when nil) as
// flags, so that a command's --help lists only the flags it reads.
func addSettingsOf(fs *pflag.FlagSet, only []string) {
	for _, s := range config.Settings {
		if s.NoFlag || only != nil && !slices.Contains(only, s.Flag) {
			continue
		}
		f := fs.VarPF(&settingValue{join: s.Join}, s.Flag, "", s.Usage+s.Repeatable()+" ["+s.Env()+"]")
		if s.Bool {
			f.NoOptDefVal = "true"
		}
	}
}

// settingValue only remembers the text; it is applied after the file and the
// environment, so that flags win whatever the order of loading. A
// repeatable flag (join set) keeps every value, joined; any other, the last.
type settingValue struct {
	vs   []string
	join string
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
func (s *settingValue) Type() string       { return "value" }

// loadWorkload reads a workload file, or a built-in workload by name.
func loadWorkload(ref string) (*config.Config, error) {
	if ref == "" {
		ref = "default"
	}
	if _, err := os.Stat(ref); err == nil || strings.ContainsAny(ref, `/\.`) {
		return config.Load(ref)
	}
	data, ok := builtin.Get(ref)
	if !ok {
		return nil, &config.Error{Kind: config.Unreadable, File: ref,
			Msg: fmt.Sprintf("no workload file or built-in workload of that name (built-ins: %s)%s", strings.Join(builtin.Names(), ", "), config.DidYouMean(ref, builtin.Names()))}
	}
	return config.Parse(data, "builtin:"+ref)
}

// resolve builds the effective configuration: defaults < file < environment
// < flags, validated, and compiles it into a plan.
func resolve(ref string, fs *pflag.FlagSet, env func(string) (string, bool)) (*config.Config, *workload.Plan, error) {
	cfg, err := loadWorkload(ref)
	if err != nil {
		return nil, nil, err
	}
	return layer(cfg, fs, env)
}

// layer applies the environment and the flags over a workload read from
// anywhere (a file, a built-in, plgm definitions), validates the result
// and compiles it.
func layer(cfg *config.Config, fs *pflag.FlagSet, env func(string) (string, bool)) (*config.Config, *workload.Plan, error) {
	if err := config.ApplyEnv(cfg, env); err != nil {
		return nil, nil, err
	}
	if err := applyFlags(cfg, fs); err != nil {
		return nil, nil, err
	}
	if es := cfg.Validate(); len(es) > 0 {
		return nil, nil, es
	}
	cfg.Run.PickOperationSeed()
	if cfg.Run.RateScale > 0 {
		cfg.Run.ApplyRateScale() // --rate-scale: the captured (or given) rate, times it
	}
	if cfg.Run.SLO != "" {
		if _, err := analysis.ParseObjectives(cfg.Run.SLO); err != nil {
			return nil, nil, &config.Error{Kind: config.Invalid, Field: "--slo", Msg: err.Error()}
		}
	}
	if err := mongodb.CheckURI(cfg.Connection.URI); err != nil {
		return nil, nil, err
	}
	plan, err := workload.Compile(cfg)
	if err != nil {
		return nil, nil, err
	}
	return cfg, plan, nil
}

func applyFlags(cfg *config.Config, fs *pflag.FlagSet) error {
	var es config.Errors
	for _, s := range config.Settings {
		f := fs.Lookup(s.Flag)
		if f == nil || !f.Changed {
			continue
		}
		if err := s.Apply(cfg, f.Value.String(), "--"+s.Flag); err != nil {
			es = append(es, &config.Error{Kind: config.Invalid, Field: "--" + s.Flag, Msg: err.Error()})
		}
	}
	return es.Err()
}

// describeError renders err as one line per problem, for stderr.
func describeError(err error) string {
	var es config.Errors
	if errors.As(err, &es) {
		return es.Error()
	}
	return err.Error()
}
