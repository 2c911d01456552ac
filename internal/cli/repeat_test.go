package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/capacity"
	"github.com/mongoload/mongoload/internal/config"
)

// TestRepeatableFlagsAccumulate is issue 25 #6: a repeated --fault kept
// only the last (one stepdown ran of two). Every setting that takes a
// list accumulates its repeated flags, from the command line and, with
// the separator --help names, from the environment; --print-config shows
// every entry; a setting that is not repeatable keeps the last value.
func TestRepeatableFlagsAccumulate(t *testing.T) {
	w := writeFile(t, "w.yaml", minimal+"  - {name: other, type: findOne, weight: 1}\n")
	tests := []struct {
		name string
		env  map[string]string
		args []string
		want []string
	}{
		{"two --fault", nil, []string{"--fault", "at 500ms: stepdown", "--fault", "at 1s: stepdown"}, []string{"at 500ms: stepdown", "at 1s: stepdown"}},
		{"faults in the environment", map[string]string{"MONGOLOAD_FAULT": "at 500ms: stepdown; at 1s: stepdown"}, nil, []string{"at 500ms: stepdown", "at 1s: stepdown"}},
		{"two --slo", nil, []string{"--slo", "p99<=20ms", "--slo", "errors<=1%"}, []string{"slo: p99<=20ms,errors<=1%"}},
		{"two --compressors", nil, []string{"--compressors", "zstd", "--compressors", "snappy"}, []string{"- zstd", "- snappy"}},
		{"two --seed NAME=N", nil, []string{"--seed", "items=7", "--seed", "mltest.items=9"}, []string{"seed: 9"}},
		{"not repeatable: the last wins", nil, []string{"--concurrency", "3", "--concurrency", "5"}, []string{"concurrency: 5"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, context.Background(), tt.env, append([]string{"run", w, "--print-config"}, tt.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for _, want := range tt.want {
				if !strings.Contains(stdout, want) {
					t.Errorf("--print-config lacks %q:\n%s", want, stdout)
				}
			}
		})
	}
	// --help says which flags repeat, and how to repeat them in the environment.
	_, help, _ := runCLI(t, context.Background(), nil, "run", "--help")
	for _, s := range config.Settings {
		if s.Join != "" && !s.NoFlag && !strings.Contains(help, "repeatable; in "+s.Env()) {
			t.Errorf("--help does not say --%s is repeatable", s.Flag)
		}
	}
	// The sweep's levels, too.
	fs := newFlags("sweep", "", IO{})
	addSweepFlags(fs)
	if err := parse(fs, []string{"--concurrency", "1,2", "--concurrency", "4"}, 0); err != nil {
		t.Fatal(err)
	}
	if _, levels, err := capacity.SweepLevels(config.Sources{Env: func(string) (string, bool) { return "", false }, Flags: given(fs)}); err != nil || len(levels) != 3 {
		t.Errorf("sweep --concurrency 1,2 --concurrency 4: levels %v, %v; want 1, 2, 4", levels, err)
	}
}
