package config

import (
	"os"
	"slices"
	"strings"
)

// Resolve is the one way a command's configuration is made (k6's
// consolidated configuration): the defaults, then the workload file, then
// the environment (MONGOLOAD_*), then the flags, then validation, which
// reports every problem at once. Every command resolves through it, the
// connection-only ones (capture, replay, verify) included, so a setting
// means the same thing, from the same place, everywhere.

// EnvPrefix starts every variable of mongoload's.
const EnvPrefix = "MONGOLOAD_"

// EnvName is the environment variable of a flag: MONGOLOAD_ and the flag
// in upper snake case ("rate-scale" → MONGOLOAD_RATE_SCALE). A command's
// own flags (load's --documents, verify's --database) follow the same rule.
func EnvName(flag string) string {
	return EnvPrefix + strings.ToUpper(strings.ReplaceAll(flag, "-", "_"))
}

// Flags reads a command line: the value of the flag name, and whether it
// was given. nil reads as no flag given.
type Flags func(name string) (value string, given bool)

// Sources are the layers of one command's configuration, lowest first.
type Sources struct {
	// File is the workload read (a file, a built-in, converted plgm or
	// YCSB definitions); nil: the defaults alone.
	File *Config
	// Env looks a variable up; nil: the process environment.
	Env func(string) (string, bool)
	// Flags are the command line's.
	Flags Flags
	// Only names the settings the command reads, by variable or flag
	// (verify: only how to connect); nil: every setting's.
	Only []string
	// Hide names the settings the command reads itself, in its own way (a
	// sweep's levels, a list): neither their variable nor their flag is
	// applied.
	Hide []string
	// Workload validates the result as a workload to run (Validate);
	// without it, as the settings of a command that runs none of its own
	// (ValidateSettings): either way, before the command does anything.
	Workload bool
	// Check is the validation that needs other packages than config (the
	// driver's URI parser, the SLO grammar, listen addresses), reported
	// with the rest.
	Check func(*Config) Errors
}

// Resolve layers s and validates the result: every mistake at once. A
// value the environment or a flag could not set (a number out of range) is
// listed with what validation finds in the rest (the field keeps its
// earlier, valid value meanwhile).
func Resolve(s Sources) (*Config, error) {
	cfg := s.File
	if cfg == nil {
		cfg = Default()
	}
	var es Errors
	es.Add(s.applyEnv(cfg))
	es.Add(s.applyFlags(cfg))
	if s.Workload {
		es = append(es, cfg.Validate()...)
	} else {
		es = append(es, cfg.ValidateSettings()...)
	}
	if s.Check != nil {
		es = append(es, s.Check(cfg)...)
	}
	if len(es) > 0 {
		return nil, es
	}
	return cfg, nil
}

// reads says whether the command reads setting flag from these layers.
func (s Sources) reads(flag string) bool {
	return !slices.Contains(s.Hide, flag) && (s.Only == nil || slices.Contains(s.Only, flag))
}

// applyEnv sets every setting whose variable (or Go's own, GOGC,
// GOMEMLIMIT) is present.
func (s Sources) applyEnv(c *Config) error {
	env := s.env()
	var es Errors
	for _, st := range Settings {
		if !s.reads(st.Flag) {
			continue
		}
		name := st.Env()
		v, ok := env(name)
		if !ok && st.GoEnv != "" {
			name = st.GoEnv
			v, ok = env(name)
		}
		if ok {
			if err := st.Apply(c, v, name); err != nil {
				es = append(es, &Error{Kind: Invalid, Field: name, Msg: err.Error()})
			}
		}
	}
	return es.Err()
}

// applyFlags sets every setting given on the command line.
func (s Sources) applyFlags(c *Config) error {
	if s.Flags == nil {
		return nil
	}
	var es Errors
	for _, st := range Settings {
		if !s.reads(st.Flag) {
			continue // hidden, or a command's own flag of the same name (capture's --duration)
		}
		if v, ok := s.Flags(st.Flag); ok {
			if err := st.Apply(c, v, "--"+st.Flag); err != nil {
				es = append(es, &Error{Kind: Invalid, Field: "--" + st.Flag, Msg: err.Error()})
			}
		}
	}
	return es.Err()
}

func (s Sources) env() func(string) (string, bool) {
	if s.Env == nil {
		return os.LookupEnv
	}
	return s.Env
}

// Value is a command's own option (one that is not a Setting: load's
// --documents, verify's --database) by the same layers: the flag, else its
// variable. where names the one that gave it ("--documents",
// "MONGOLOAD_DOCUMENTS"; the flag when neither did), for its refusal.
func (s Sources) Value(flag string) (v, where string, ok bool) {
	if s.Flags != nil {
		if v, ok := s.Flags(flag); ok {
			return v, "--" + flag, true
		}
	}
	if v, ok := s.env()(EnvName(flag)); ok {
		return v, EnvName(flag), true
	}
	return "", "--" + flag, false
}

// Given says whether the user set flag, by the command line or its
// variable (a command's own default applies otherwise).
func (s Sources) Given(flag string) bool {
	_, _, ok := s.Value(flag)
	return ok
}

// ApplyEnv sets every option whose MONGOLOAD_* variable is present in env.
func ApplyEnv(c *Config, env func(string) (string, bool)) error {
	return Sources{Env: env}.applyEnv(c)
}
