package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/pflag"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/input"
	"github.com/mongoload/mongoload/internal/workload"
	"github.com/mongoload/mongoload/internal/ycsb"
)

// resolve builds a command's effective configuration, validated, and its
// plan (input.Workload) from what fs gave: a workload file or built-in
// (ref), plgm definitions (--plgm-*) or YCSB property files (-P, then w is
// set). Warnings go to stderr, one line each. scope narrows the layers
// to the command's settings (reading, hiding).
func resolve(ref string, fs *pflag.FlagSet, o IO, scope ...func(*input.Given)) (cfg *config.Config, plan *workload.Plan, w *ycsb.Workload, err error) {
	files, _ := fs.GetStringArray("ycsb") // nil where the command has no such flag
	props, _ := fs.GetStringArray("property")
	paths, isPlgm := plgmPaths(fs)
	g := input.Given{Ref: ref, YCSB: files, Properties: props, Plgm: paths, IsPlgm: isPlgm,
		Env: o.Getenv, Flags: given(fs), Warn: func(s string) { fmt.Fprintln(o.Stderr, s) }}
	for _, narrow := range scope {
		narrow(&g)
	}
	return input.Workload(g)
}

// describeError renders err as one line per problem, for stderr.
func describeError(err error) string {
	var es config.Errors
	if errors.As(err, &es) {
		return es.Error()
	}
	return err.Error()
}
