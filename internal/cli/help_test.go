package cli

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/config"
)

// helpFlags are the long flags a command's --help lists.
func helpFlags(t *testing.T, cmd ...string) []string {
	t.Helper()
	_, stdout, _ := runCLI(t, context.Background(), nil, append(cmd, "--help")...)
	var out []string
	for _, m := range regexp.MustCompile(`(?m)^\s+(?:-\w, )?--([a-z][a-z0-9-]*)`).FindAllStringSubmatch(stdout, -1) {
		out = append(out, m[1])
	}
	if len(out) == 0 {
		t.Fatalf("%v --help lists no flag:\n%s", cmd, stdout)
	}
	return out
}

// settingField is the configuration field a setting sets, as "Run.Rate" or
// "Connection.Timeouts.Connect": found by setting it on an empty
// configuration and seeing which field changed.
func settingField(t *testing.T, s config.Setting) string {
	t.Helper()
	for _, v := range []string{"3", "true", "2s", "0.5", "majority", "1/2", "10s:5", "2030-01-02T03:04:05Z", "at 1s: stepdown", "x"} {
		var c config.Config
		if s.Set(&c, v) != nil {
			continue
		}
		if f := changed(reflect.ValueOf(c), ""); f != "" {
			return f
		}
	}
	t.Fatalf("--%s sets no field of the configuration", s.Flag)
	return ""
}

func changed(v reflect.Value, path string) string {
	if v.Kind() == reflect.Struct && v.Type() != reflect.TypeOf(config.Duration(0)) {
		for i := range v.NumField() {
			name := v.Type().Field(i).Name
			p := name
			if path != "" {
				p = path + "." + name
			}
			if f := changed(v.Field(i), p); f != "" {
				return f
			}
		}
		return ""
	}
	if !v.IsZero() {
		return path
	}
	return ""
}

// readsIn reports the field names selected (cfg.Run.Rate reads "Run" and
// "Rate") in the named functions of the cli package and every function
// they call in it, in where it reads its workload (internal/input), in the
// run it drives (internal/run) or in the capacity
// commands built on it (internal/capacity), transitively:
// what a command's code reads.
func readsIn(t *testing.T, roots ...string) map[string]bool {
	t.Helper()
	funcs := map[string][]*ast.FuncDecl{} // functions and methods by name
	for dir, name := range map[string]string{".": "cli", "../input": "input", "../run": "run", "../capacity": "capacity"} {
		pkgs, err := parser.ParseDir(token.NewFileSet(), dir, func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range pkgs[name].Files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok {
					funcs[fd.Name.Name] = append(funcs[fd.Name.Name], fd)
				}
			}
		}
	}
	reads := map[string]bool{}
	seen := map[string]bool{}
	var visit func(name string)
	visit = func(name string) {
		if seen[name] {
			return
		}
		seen[name] = true
		for _, fd := range funcs[name] {
			ast.Inspect(fd, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.SelectorExpr:
					reads[x.Sel.Name] = true // read through a variable too: r := cfg.Run; r.Rate
					visit(x.Sel.Name)        // a method call
				case *ast.Ident:
					visit(x.Name)
				}
				return true
			})
		}
	}
	for _, r := range roots {
		visit(r)
	}
	return reads
}

// TestHelpListsOnlyFlagsTheCommandReads: every setting a command's --help
// lists sets a configuration field that the command's own code (its
// function and every function of the package it calls) reads; connection
// settings are read by connecting. load lists none of the run's flags.
func TestHelpListsOnlyFlagsTheCommandReads(t *testing.T) {
	settings := map[string]config.Setting{}
	for _, s := range config.Settings {
		settings[s.Flag] = s
	}
	tests := []struct {
		cmd  []string
		root string
	}{
		{[]string{"load"}, "loadCommand"},
		{[]string{"run"}, "runCommand"},
		{[]string{"sweep"}, "sweepCommand"},
		{[]string{"validate"}, "validateCommand"},
	}
	for _, tc := range tests {
		t.Run(tc.cmd[0], func(t *testing.T) {
			reads := readsIn(t, tc.root)
			for _, flag := range helpFlags(t, tc.cmd...) {
				s, ok := settings[flag]
				if !ok {
					continue // the command's own flag, read where it is declared
				}
				field := settingField(t, s)
				if strings.HasPrefix(field, "Connection.") && reads["Connection"] || tc.root == "validateCommand" {
					continue // connecting reads the connection; validate checks every setting it is given
				}
				parts := strings.Split(field, ".")
				if !reads[parts[0]] || !reads[parts[len(parts)-1]] {
					t.Errorf("%s --help lists --%s, which sets %s, but the command never reads it", tc.cmd[0], flag, field)
				}
			}
		})
	}
	// The run's own settings are not load's.
	load := helpFlags(t, "load")
	for _, f := range []string{"rate", "sessions", "slo", "stages", "duration", "concurrency", "warmup", "out", "quiet", "explain", "empty-threshold"} {
		if slices.Contains(load, f) {
			t.Errorf("load --help lists --%s, which only run reads", f)
		}
	}
}
