package config

import (
	"fmt"
	"strings"
)

// Provenance: a value set by a flag or an environment variable is blamed
// on it, never on the workload file, which may not even have the key
// ("small.yaml: run.concurrency" for a bad --concurrency). Apply records
// who set what; Validate asks blame.

// fieldKeys maps the settings whose key in the file is not their flag in
// camel case.
var fieldKeys = map[string]string{
	"connect-timeout":          "connect",
	"server-selection-timeout": "serverSelection",
	"op-timeout":               "operation",
}

// Apply sets s from v, as given by where ("--concurrency",
// "MONGOLOAD_CONCURRENCY"), and remembers that where set it.
func (s Setting) Apply(c *Config, v, where string) error {
	faults := len(c.Run.Faults)
	if err := s.Set(c, v); err != nil {
		return err
	}
	if c.setBy == nil {
		c.setBy = map[string]string{}
	}
	for i := faults; i < len(c.Run.Faults); i++ { // each entry a flag added
		c.setBy[fmt.Sprintf("faults[%d]", i)] = where
	}
	if len(c.Run.Faults) == faults {
		c.setBy[fieldKey(s.Flag)] = where
	}
	return nil
}

// blame names the flag or environment variable that set field
// ("run.concurrency", "run.faults[2]"), if one did.
func (c *Config) blame(field string) (string, bool) {
	key := field[strings.LastIndex(field, ".")+1:]
	if where, ok := c.setBy[key]; ok {
		return where, true
	}
	if i := strings.IndexByte(key, '['); i > 0 {
		where, ok := c.setBy[key[:i]]
		return where, ok
	}
	return "", false
}

// fieldKey is the key of a setting in the file: its flag in camel case.
func fieldKey(flag string) string {
	if k, ok := fieldKeys[flag]; ok {
		return k
	}
	parts := strings.Split(flag, "-")
	for i := 1; i < len(parts); i++ {
		parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
	}
	return strings.Join(parts, "")
}

// Refuse is the refusal (exit 12) of field's value ("run.slo"), named
// where the value came from: the flag or variable that set it, else the
// key of the workload file. A check outside Validate (the SLO grammar, a
// listen address) names the source as Validate does.
func (c *Config) Refuse(field string, err error) *Error {
	if where, ok := c.blame(field); ok {
		return &Error{Kind: Invalid, Field: where, Msg: err.Error()}
	}
	return &Error{Kind: Invalid, File: c.Source, Field: field, Msg: err.Error()}
}

// Origin names where field's value came from: the flag or variable that
// set it, else field itself (the workload's key, or the default).
func (c *Config) Origin(field string) string {
	if where, ok := c.blame(field); ok {
		return where
	}
	return field
}
