// Package workloadtest turns a workload's YAML into a validated
// configuration and its plan, the way a run reads a workload file, for the
// tests of every package that needs one.
package workloadtest

import (
	"testing"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/workload"
)

// Compile parses src (named source in errors), validates it and compiles
// it; any problem fails the test.
func Compile(tb testing.TB, src []byte, source string) (*config.Config, *workload.Plan) {
	tb.Helper()
	cfg, err := config.Parse(src, source)
	if err != nil {
		tb.Fatal(err)
	}
	if es := cfg.Validate(); len(es) > 0 {
		tb.Fatalf("%s does not validate: %v", source, es)
	}
	plan, err := workload.Compile(cfg)
	if err != nil {
		tb.Fatalf("%s does not compile: %v", source, err)
	}
	return cfg, plan
}
