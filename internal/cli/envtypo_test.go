package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/mongoload/mongoload/internal/config"
)

// TestMisspeltVariableNamed: a MONGOLOAD_ variable one letter off is
// named with the one meant (promises5: it was ignored in silence), once,
// on stderr, and the command still runs on what it was given.
func TestMisspeltVariableNamed(t *testing.T) {
	file := filepath.Join(t.TempDir(), "w.yaml")
	if err := os.WriteFile(file, []byte("name: w\ncollections: [{database: d, name: c, template: {_id: {$gen: key}}}]\noperations: [{name: a, type: find, weight: 1, filter: {_id: 1}}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"MONGOLOAD_CONCURENCY": "64", "MONGOLOAD_TEST_URI": "mongodb://x"}
	var out, errb bytes.Buffer
	code := Run(context.Background(), []string{"validate", file}, IO{Stdout: &out, Stderr: &errb,
		Getenv:  func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		Environ: func() []string { return []string{"MONGOLOAD_CONCURENCY=64", "MONGOLOAD_TEST_URI=mongodb://x"} }})
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	want := "warning: MONGOLOAD_CONCURENCY is not a mongoload variable and is ignored (did you mean MONGOLOAD_CONCURRENCY?)\n"
	if errb.String() != want {
		t.Errorf("stderr %q, want %q", errb.String(), want)
	}
}

// TestLoadReadsOnlyItsVariables: load reads the variables of the settings
// it takes (MONGOLOAD_SEED_SCALE: refused when bad, exit 12), not a run's
// (a bad MONGOLOAD_RATE is no concern of a load: it goes on to connect,
// here to nothing, exit 16).
func TestLoadReadsOnlyItsVariables(t *testing.T) {
	file := filepath.Join(t.TempDir(), "w.yaml")
	if err := os.WriteFile(file, []byte("name: w\ncollections: [{database: d, name: c, template: {_id: {$gen: key}}}]\noperations: [{name: a, type: find, weight: 1, filter: {_id: 1}}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		env  string
		want int
	}{{"MONGOLOAD_RATE", ExitUnreachable}, {"MONGOLOAD_SEED_SCALE", ExitInvalid}} {
		var out, errb bytes.Buffer
		code := Run(context.Background(), []string{"load", file, "--uri", "mongodb://127.0.0.1:1", "--server-selection-timeout", "100ms", "--documents", "1"},
			IO{Stdout: &out, Stderr: &errb, Getenv: func(k string) (string, bool) { return "abc", k == tc.env }})
		if code != tc.want {
			t.Errorf("%s=abc: exit %d, want %d: %s", tc.env, code, tc.want, errb.String())
		}
	}
}

// TestEveryFlagReadsItsVariableOrSaysNot: every flag of every command is
// a setting, a command's own option that reads its variable, or listed in
// config.CommandLineOnly, and that list names only flags that exist; so a
// variable named after a flag is read, or told it is not, never answered
// with another variable's name (promises6: MONGOLOAD_SPEED was "did you
// mean MONGOLOAD_SEED?").
func TestEveryFlagReadsItsVariableOrSaysNot(t *testing.T) {
	known := config.Variables()
	seen := map[string]bool{}
	for name := range commands {
		_, stdout, _ := runCLI(t, context.Background(), nil, name, "--help")
		for _, m := range regexp.MustCompile(`(?m)^\s+(?:-\w, )?--([a-z][a-z0-9-]*)`).FindAllStringSubmatch(stdout, -1) {
			flag := m[1]
			seen[flag] = true
			if flag == "help" || slices.Contains(known, config.EnvName(flag)) || slices.Contains(config.CommandLineOnly, flag) {
				continue
			}
			t.Errorf("%s --%s: neither read from %s nor in config.CommandLineOnly", name, flag, config.EnvName(flag))
		}
	}
	for _, flag := range config.CommandLineOnly {
		if !seen[flag] {
			t.Errorf("config.CommandLineOnly lists --%s, which no command has", flag)
		}
		if slices.Contains(known, config.EnvName(flag)) {
			t.Errorf("config.CommandLineOnly lists --%s, whose variable is read", flag)
		}
	}
}
