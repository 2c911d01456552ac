package config

import (
	"fmt"
	"slices"
	"strings"
)

// commandVariables are the commands' own options that a variable sets
// besides the Settings (Sources.Value): load's, verify's --database, and
// MONGOLOAD_PPROF, and replay's --speed and --loop.
var commandVariables = []string{"documents", "size", "batch-size", "workers", "indexes", "load-write-concern", "resume", "collection", "database", "pprof", "speed", "loop"}

// CommandLineOnly are the commands' own flags that no variable sets (a
// comparison's files, capture's sources, the verdict rules, the
// privacy switches): a variable named after one is no typo of another
// variable, and is told so rather than offered a wrong "did you mean".
// cli's TestEveryFlagReadsItsVariableOrSaysNot keeps the list in step with
// the commands' flags.
var CommandLineOnly = []string{"accept-noise", "achieved", "allow-same", "alpha", "baseline", "candidate-uri", "client-cpu-limit",
	"compare", "csv", "degraded-drop", "enable-profiler", "export", "factor", "fail-on-regression", "format", "growth", "headroom",
	"html", "keep-values", "knee-gain", "latency-knee", "linear-gain", "log", "markdown", "max-impact", "max-probes", "metric",
	"min-share", "name", "objective", "oversaturated", "p-value", "parallel", "plateau", "plgm-collections", "plgm-config",
	"plgm-queries", "precision", "print-config", "profiler", "property", "query-stats", "redact-names", "rounds", "sample",
	"sample-rate", "scale", "since", "slowms", "start", "step-duration", "target-server-cpu", "threshold", "trace", "users",
	"verdict-latency", "verify", "workload", "writes", "ycsb"}

// notReadBy are the flags of a command that share a name, and so a
// variable, with a setting another command reads but that this command
// takes from its command line only: MONGOLOAD_OUT set for the runs of a CI
// job is no place for capture's workload file, nor MONGOLOAD_DURATION for
// how long capture reads a profiler. A variable of theirs is named when
// set (NotReadBy), not applied in silence, nor ignored in silence.
var notReadBy = map[string][]string{
	"capture": {"database", "duration", "out", "rate"},
	"merge":   {"out"},
	"history": {"label"},
	"ab":      {"speed"},
}

// NotReadBy names each variable of environ that is set for a flag command
// takes from its command line only (notReadBy).
func NotReadBy(command string, environ []string) []string {
	var out []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		for _, flag := range notReadBy[command] {
			if name == EnvName(flag) {
				out = append(out, fmt.Sprintf("%s is set, and %s does not read it: %s's --%s is given on the command line only", name, command, command, flag))
			}
		}
	}
	slices.Sort(out)
	return out
}

// NotReadFlags are the flags of command that NotReadBy names.
func NotReadFlags(command string) []string { return slices.Clone(notReadBy[command]) }

// Variables are the names of every variable mongoload reads.
func Variables() []string {
	var out []string
	for _, s := range Settings {
		out = append(out, s.Env())
	}
	for _, f := range commandVariables {
		out = append(out, EnvName(f))
	}
	return out
}

// MisspeltVariables names each MONGOLOAD_ variable of environ ("NAME=value"
// entries) that mongoload does not read but that is one or two letters
// away from one it does: a typo that would otherwise be ignored in
// silence, as a misspelt flag is not. A variable close to none is left
// alone: other tools (a test harness) may share the prefix.
func MisspeltVariables(environ []string) []string {
	known := Variables()
	var out []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		suffix, ok := strings.CutPrefix(name, EnvPrefix)
		if !ok || slices.Contains(known, name) {
			continue
		}
		if flag := strings.ToLower(strings.ReplaceAll(suffix, "_", "-")); slices.Contains(CommandLineOnly, flag) {
			out = append(out, fmt.Sprintf("%s is not a mongoload variable and is ignored: --%s is given on the command line only", name, flag))
			continue
		}
		near := 2
		if len(suffix) <= 4 {
			near = 1
		}
		best, bestDist := "", near+1
		for _, k := range known {
			if d := editDistance(suffix, strings.TrimPrefix(k, EnvPrefix)); d < bestDist {
				best, bestDist = k, d
			}
		}
		if best != "" {
			out = append(out, fmt.Sprintf("%s is not a mongoload variable and is ignored (did you mean %s?)", name, best))
		}
	}
	slices.Sort(out)
	return out
}
