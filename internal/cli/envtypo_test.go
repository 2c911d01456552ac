package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
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

// TestEveryFlagReadsItsVariableOrSaysNot: every flag of every command
// reads its variable (its help names it), is listed in
// config.CommandLineOnly, or, where another command reads a variable of
// that name, is one the command names when that variable is set
// (config.NotReadFlags); and those lists name only flags that exist. So a
// variable named after a flag is read, or told it is not, never answered
// with another variable's name (promises6: MONGOLOAD_SPEED was "did you
// mean MONGOLOAD_SEED?") nor ignored in silence (MONGOLOAD_OUT by capture).
func TestEveryFlagReadsItsVariableOrSaysNot(t *testing.T) {
	known := config.Variables()
	seen := map[string]bool{}
	for name := range commands {
		_, stdout, _ := runCLI(t, context.Background(), nil, name, "--help")
		flags := map[string]bool{}
		for _, m := range regexp.MustCompile(`(?m)^\s+(?:-\w, )?--([a-z][a-z0-9-]*)(.*)$`).FindAllStringSubmatch(stdout, -1) {
			flag, reads := m[1], strings.Contains(m[2], "["+config.EnvName(m[1])+"]")
			seen[flag], flags[flag] = true, true
			notRead := slices.Contains(config.NotReadFlags(name), flag)
			switch {
			case flag == "help", slices.Contains(config.CommandLineOnly, flag):
			case reads && !slices.Contains(known, config.EnvName(flag)):
				t.Errorf("%s --%s: its help names %s, which mongoload does not read", name, flag, config.EnvName(flag))
			case reads && notRead:
				t.Errorf("%s --%s: its help names %s, and config.NotReadFlags says %s does not read it", name, flag, config.EnvName(flag), name)
			case !reads && !notRead:
				t.Errorf("%s --%s: its help names no %s, and it is in neither config.CommandLineOnly nor config.NotReadFlags(%q)", name, flag, config.EnvName(flag), name)
			case notRead && !slices.Contains(known, config.EnvName(flag)):
				t.Errorf("%s --%s: no command reads %s, so it belongs in config.CommandLineOnly", name, flag, config.EnvName(flag))
			}
		}
		for _, flag := range config.NotReadFlags(name) {
			if !flags[flag] {
				t.Errorf("config.NotReadFlags(%q) lists --%s, which it does not have", name, flag)
			}
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

// TestUnreadVariableNamed: MONGOLOAD_OUT, set for a job's runs, is named
// by merge, whose --out it does not set, and the merge still runs on what
// it was given; run, which reads it, names nothing.
func TestUnreadVariableNamed(t *testing.T) {
	environ := []string{"MONGOLOAD_OUT=/nonexistent/run.json"}
	var out, errb bytes.Buffer
	code := Run(context.Background(), []string{"merge", filepath.Join(t.TempDir(), "missing.json")}, IO{Stdout: &out, Stderr: &errb,
		Getenv:  func(k string) (string, bool) { return "/nonexistent/run.json", k == "MONGOLOAD_OUT" },
		Environ: func() []string { return environ }})
	want := "warning: MONGOLOAD_OUT is set, and merge does not read it: merge's --out is given on the command line only\n"
	if code == ExitOK || !strings.HasPrefix(errb.String(), want) || strings.Count(errb.String(), "MONGOLOAD_OUT") != 1 {
		t.Errorf("exit %d, stderr %q: want the warning %q once, then merge's own error", code, errb.String(), want)
	}
	if w := config.NotReadBy("run", environ); len(w) != 0 {
		t.Errorf("run reads MONGOLOAD_OUT, yet: %q", w)
	}
}
