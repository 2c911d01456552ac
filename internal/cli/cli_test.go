package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/testserver"
)

func TestMain(m *testing.M) { testserver.Main(m) }

// run executes a command line in-process with env as the only environment.
func runCLI(t *testing.T, ctx context.Context, env map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	// Safe for concurrent writes, as os.Stdout and os.Stderr are: the live
	// sink and the run's own lines may write at the same time.
	var out, errb lockedBuffer
	code = Run(ctx, args, IO{Stdout: &out, Stderr: &errb, Getenv: func(k string) (string, bool) {
		v, ok := env[k]
		return v, ok
	}})
	return code, out.String(), errb.String()
}

// background is a command line running in-process, its output readable
// while it runs: a test waits for an event in it (a live line with
// operations, documents on the server) before it strikes.
type background struct {
	stdout, stderr lockedBuffer
	done           chan int
}

// runInBackground starts a command line as run does and returns at once.
func runInBackground(ctx context.Context, args ...string) *background {
	b := &background{done: make(chan int, 1)}
	go func() {
		b.done <- Run(ctx, args, IO{Stdout: &b.stdout, Stderr: &b.stderr, Getenv: func(string) (string, bool) { return "", false }})
	}()
	return b
}

// wait returns the command's exit code and output once it has ended.
func (b *background) wait() (code int, stdout, stderr string) {
	code = <-b.done
	return code, b.stdout.String(), b.stderr.String()
}

// busy reports whether the live line shows n intervals with operations.
func (b *background) busy(n int) func() bool {
	return func() bool { return testserver.Busy(b.stderr.String(), n) }
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const minimal = `
collections:
  - database: mltest
    name: items
    template:
      k: {$gen: key}
      v: {$gen: int, min: 1, max: 9}
operations:
  - name: get
    type: findOne
    weight: 1
    filter: {k: {$gen: key}}
`

// TestBadInput checks that every kind of bad input gets one clear line naming
// the place and the fix, and its own exit code, and never a panic.
func TestBadInput(t *testing.T) {
	unwritableParent := writeFile(t, "plainfile", "x")
	tests := []struct {
		name     string
		file     string // workload content; "" uses the built-in default
		args     []string
		code     int
		contains []string
	}{
		// A YAML syntax error names the file and line.
		{"malformed yaml", "collections:\n  - name: [unclosed\n", nil, ExitSyntax, []string{"w.yaml:2", "malformed"}},
		// JSON is accepted, and its syntax errors are located too.
		{"malformed json", "{\"collections\": [ {\"name\": \"a\",, } ]}", nil, ExitSyntax, []string{"w.yaml:1"}},
		// A misspelt key is an error naming the closest valid key.
		{"unknown key", strings.Replace(minimal, "weight:", "wieght:", 1), nil, ExitUnknownKey, []string{`operations[0].wieght: unknown key (did you mean "weight"?)`, "w.yaml:11"}},
		// Weights summing to zero leave nothing to run.
		{"zero weights", strings.Replace(minimal, "weight: 1", "weight: 0", 1), nil, ExitInvalid, []string{"weights sum to 0"}},
		// An unknown generator is named with the closest real one.
		{"unknown generator", strings.Replace(minimal, "$gen: int", "$gen: itn", 1), nil, ExitUnknownGen, []string{`"itn"`, `did you mean "int"`, "w.yaml:7"}},
		// A generator unknown deep inside an operation's template.
		{"template unknown generator", strings.Replace(minimal, "filter: {k: {$gen: key}}", "filter: {k: {$in: [{$gen: kye}]}}", 1), nil, ExitUnknownGen, []string{`"kye"`, `did you mean "key"`}},
		// An unknown operation type lists the valid ones.
		{"unknown operation", strings.Replace(minimal, "type: findOne", "type: fineOne", 1), nil, ExitUnknownOp, []string{`"fineOne"`, `did you mean "findOne"`}},
		// A URI the driver cannot parse fails before any connection.
		{"bad uri", minimal, []string{"--uri", "mongodb://127.0.0.1:notaport"}, ExitBadURI, []string{"notaport"}},
		// A URI without the scheme.
		{"uri scheme", minimal, []string{"--uri", "http://127.0.0.1"}, ExitBadURI, []string{"mongodb://"}},
		// An output file that cannot be written is found before the run starts
		// (the unreachable URI proves no connection was tried first).
		{"unwritable output", minimal, []string{"--out", filepath.Join(unwritableParent, "r.json"), "--uri", "mongodb://127.0.0.1:1"}, ExitOutput, []string{"plainfile"}},
		// A missing file.
		{"missing file", "", []string{"/nonexistent/w.yaml"}, ExitUnreadable, []string{"/nonexistent/w.yaml", "cannot read"}},
		// A bad flag value names the flag.
		{"bad flag value", minimal, []string{"--concurrency", "many"}, ExitInvalid, []string{"--concurrency", `"many"`}},
		// An unknown flag is a usage error.
		{"unknown flag", minimal, []string{"--concurency", "3"}, ExitUsage, []string{"concurency"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"run"}
			if tt.file != "" {
				args = append(args, writeFile(t, "w.yaml", tt.file))
			}
			args = append(args, tt.args...)
			code, _, stderr := runCLI(t, context.Background(), nil, args...)
			if code != tt.code {
				t.Fatalf("exit code %d, want %d; stderr:\n%s", code, tt.code, stderr)
			}
			if strings.Contains(stderr, "panic") || strings.Contains(stderr, "goroutine ") {
				t.Fatalf("stack trace in output:\n%s", stderr)
			}
			for _, want := range tt.contains {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr)
				}
			}
		})
	}
}

// TestUnreachableFailsWithinTimeout: an unreachable server is reported with
// the address tried, within the configured server-selection timeout.
func TestUnreachableFailsWithinTimeout(t *testing.T) {
	p := writeFile(t, "w.yaml", minimal)
	start := time.Now()
	code, _, stderr := runCLI(t, context.Background(), nil, "run", p, "--uri", "mongodb://127.0.0.1:1/?directConnection=true", "--server-selection-timeout", "1s")
	if code != ExitUnreachable {
		t.Fatalf("exit %d, want %d: %s", code, ExitUnreachable, stderr)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %s to give up with a 1s timeout", took)
	}
	if !strings.Contains(stderr, "127.0.0.1:1") {
		t.Errorf("message lacks the address tried: %s", stderr)
	}
}

// TestPrecedence: flags > environment > file > defaults, and the password
// never shows in --print-config.
func TestPrecedence(t *testing.T) {
	p := writeFile(t, "w.yaml", minimal+"run:\n  concurrency: 4\n  warmup: 7s\n")
	env := map[string]string{"MONGOLOAD_CONCURRENCY": "6", "MONGOLOAD_PASSWORD": "s3cr3t-pw",
		"MONGOLOAD_URI": "mongodb://bob:hunter2@db.example:27017/?directConnection=true"}
	tests := []struct {
		name string
		env  map[string]string
		args []string
		want []string
	}{
		// The file beats the defaults.
		{"file", nil, nil, []string{"concurrency: 4", "warmup: 7s", "duration: 30s"}},
		// The environment beats the file.
		{"env", env, nil, []string{"concurrency: 6", "warmup: 7s"}},
		// A flag beats the environment.
		{"flag", env, []string{"--concurrency", "8", "--warmup", "0"}, []string{"concurrency: 8"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"run", p, "--print-config"}, tt.args...)
			code, out, stderr := runCLI(t, context.Background(), tt.env, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("effective config lacks %q:\n%s", w, out)
				}
			}
			for _, secret := range []string{"s3cr3t-pw", "hunter2"} {
				if strings.Contains(out+stderr, secret) {
					t.Errorf("password %q printed:\n%s", secret, out)
				}
			}
		})
	}
}

func TestValidateTouchesNoServer(t *testing.T) {
	p := writeFile(t, "w.yaml", minimal)
	code, out, stderr := runCLI(t, context.Background(), nil, "validate", p, "--uri", "mongodb://127.0.0.1:1")
	if code != 0 || !strings.Contains(out, "valid: 1 collection(s), 1 operation(s)") {
		t.Fatalf("exit %d, out %q, err %q", code, out, stderr)
	}
	code, out, _ = runCLI(t, context.Background(), nil, "validate")
	if code != 0 || !strings.Contains(out, "builtin:default: valid") {
		t.Fatalf("the built-in default workload does not validate: %d %s", code, out)
	}
}

// TestSLOBattery: a battery judges every run by its objectives and exits 0
// when the quorum holds, 30 when it does not; a malformed objective is a
// clear error before any server is touched.
func TestSLOBattery(t *testing.T) {
	uri := testserver.URI(t)
	p := uniqueDB(t, minimal)
	code, stdout, stderr := runCLI(t, context.Background(), nil, "run", p, "--uri", uri, "--seed", "100", "--duration", "1s", "--quiet",
		"--repeat", "2", "--cooldown", "100ms", "--slo", "p99<=5s,throughput>=1")
	if code != 0 || !strings.Contains(stdout, "2/2 passed (quorum 2): SLA HOLDS") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCLI(t, context.Background(), nil, "run", p, "--uri", uri, "--duration", "1s", "--quiet",
		"--slo", "get:p50<=1us")
	if code != ExitSLA || !strings.Contains(stdout, "FAIL  get:p50<=1us") || !strings.Contains(stderr, "SLA failed: 0 of 1 runs") {
		t.Fatalf("exit %d, want %d\n%s\n%s", code, ExitSLA, stdout, stderr)
	}
	code, _, stderr = runCLI(t, context.Background(), nil, "run", p, "--uri", "mongodb://127.0.0.1:1", "--slo", "p99<=fast")
	if code != ExitInvalid || !strings.Contains(stderr, "--slo") {
		t.Fatalf("malformed objective: exit %d: %s", code, stderr)
	}
}
