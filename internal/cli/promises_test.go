package cli

import (
	"context"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/testserver"
)

// TestOutNeverOverwritesInput: an output file that is also an input of the
// command (the workload, a -P file, a file being merged) is refused before
// anything runs, with one line, and the input is left byte for byte.
func TestOutNeverOverwritesInput(t *testing.T) {
	w := writeFile(t, "w.yaml", minimal)
	p := writeFile(t, "workloada", "recordcount=10\noperationcount=10\nreadproportion=1\n")
	m := writeFile(t, "a.json", `{"schema": "mongoload/results"}`)
	link := w + ".link"
	if err := os.Symlink(w, link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		args  []string
		input string
	}{
		{"run workload", []string{"run", w, "--out", w}, w},
		{"run through a symlink", []string{"run", w, "--out", link}, w},
		{"run -P", []string{"run", "-P", p, "--out", p}, p},
		{"sweep workload", []string{"sweep", w, "--concurrency", "1,2", "--out", w}, w},
		{"sweep html", []string{"sweep", w, "--concurrency", "1,2", "--html", w}, w},
		{"merge input", []string{"merge", m, "--out", m}, m},
		{"report html", []string{"report", m, "--html", m}, m},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, _ := os.ReadFile(tt.input)
			args := tt.args
			if args[0] != "merge" && args[0] != "report" {
				args = append(args, "--uri", "mongodb://127.0.0.1:1", "--server-selection-timeout", "1s")
			}
			code, _, stderr := runCLI(t, context.Background(), nil, args...)
			if code != ExitOutput || !strings.Contains(stderr, "is also an input of this command") {
				t.Fatalf("exit %d, stderr %q; want %d and a line saying it is an input", code, stderr, ExitOutput)
			}
			if n := strings.Count(strings.TrimSpace(stderr), "\n"); n > 0 {
				t.Errorf("more than one line: %q", stderr)
			}
			if after, _ := os.ReadFile(tt.input); string(after) != string(before) {
				t.Errorf("the input was changed")
			}
		})
	}
}

// TestOutInAnUnwritableDirectory: --out /proc/version names the directory
// that refuses new files, rather than calling it missing.
func TestOutInAnUnwritableDirectory(t *testing.T) {
	if _, err := os.Stat("/proc/version"); err != nil {
		t.Skip("no /proc")
	}
	code, _, stderr := runCLI(t, context.Background(), nil, "run", writeFile(t, "w.yaml", minimal), "--out", "/proc/version", "--uri", "mongodb://127.0.0.1:1")
	if code != ExitOutput || !strings.Contains(stderr, `directory "/proc", which does not accept one`) {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

// TestNoCredentialsIsAnAuthFailure: against a server that requires
// authentication, a run without credentials used to exit 22 with a raw
// "(Unauthorized)" at setup; it exits 17, the authentication code, with
// one line saying what to set, and the doc says the same of 17.
func TestNoCredentialsIsAnAuthFailure(t *testing.T) {
	uri := testserver.OwnServer(t, "--auth").URI
	code, _, stderr := runCLI(t, context.Background(), nil, "run", writeFile(t, "w.yaml", minimal), "--uri", uri, "--duration", "1s")
	if code != ExitAuth || !strings.Contains(stderr, "MONGOLOAD_USERNAME and MONGOLOAD_PASSWORD") || strings.Contains(stderr, "Unauthorized") {
		t.Fatalf("exit %d, stderr %q; want %d naming MONGOLOAD_USERNAME and MONGOLOAD_PASSWORD", code, stderr, ExitAuth)
	}
	docSays(t, ExitAuth, "MONGOLOAD_USERNAME", "none were given")
}

// TestUnreachableServer: nothing listening at the address is reported at
// once, as such, not after the whole server-selection timeout (10 s by
// default); a server that accepts connections but does not answer gets a
// line saying what mongoload waits for, while it waits.
func TestUnreachableServer(t *testing.T) {
	w := writeFile(t, "w.yaml", minimal)
	start := time.Now()
	code, _, stderr := runCLI(t, context.Background(), nil, "run", w, "--uri", "mongodb://127.0.0.1:1/?directConnection=true", "--duration", "1s")
	took := time.Since(start)
	if code != ExitUnreachable || !strings.Contains(stderr, "nothing listens at 127.0.0.1:1 (connection refused)") {
		t.Fatalf("refused: exit %d, stderr %q", code, stderr)
	}
	if !testserver.Race && took > 6*time.Second {
		t.Errorf("a refused connection took %s to report (the server-selection timeout is 10s)", took)
	}
	docSays(t, ExitUnreachable, "no server answered")

	// A listener that never answers: the handshake waits.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	addr := ln.Addr().String()
	start = time.Now()
	code, _, stderr = runCLI(t, context.Background(), nil, "run", w, "--uri", "mongodb://"+addr+"/?directConnection=true", "--server-selection-timeout", "3s", "--duration", "1s")
	took = time.Since(start)
	if code != ExitUnreachable || !strings.Contains(stderr, "no answer yet from "+addr+": waiting up to 1s more") {
		t.Fatalf("silent server: exit %d, stderr %q", code, stderr)
	}
	// The line, at 2 s, promised 1 s more: the bound it states is 3 s in
	// all, not 4 s (issue 25 #11; the driver's selection timeout started
	// again for the second ping).
	if !testserver.Race && (took < 3*time.Second || took > 3700*time.Millisecond) {
		t.Errorf("silent server: gave up after %s; the line and --server-selection-timeout 3s say 3s", took)
	}
}

// TestOutputsCheckedBeforeTheServerIsTouched is issue 25 #5: --hdr-log
// into a place that cannot hold it and --prometheus on a port in use
// failed only after --drop and seeding had replaced the collection. They
// now fail first (exit 18, one line), and the collection is as it was:
// the server's count is the oracle.
func TestOutputsCheckedBeforeTheServerIsTouched(t *testing.T) {
	uri := testserver.URI(t)
	d := openDB(t, uri)
	name := uniqueName(t)
	w := writeFile(t, "w.yaml", "collections:\n  - {database: "+name+", name: c, template: {_id: {$gen: key}}}\noperations:\n  - {name: get, type: findOne, weight: 1, filter: {_id: {$gen: key}}}\n")
	if code, _, stderr := runCLI(t, context.Background(), nil, "run", w, "--uri", uri, "--seed", "50", "--operations", "1", "--duration", "0", "--quiet"); code != 0 {
		t.Fatalf("first run: exit %d: %s", code, stderr)
	}
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	file := writeFile(t, "file", "")
	for _, cmd := range []string{"run", "sweep"} {
		for _, bad := range [][]string{{"--hdr-log", file + "/x.hlog"}, {"--prometheus", busy.Addr().String()}} {
			args := append([]string{cmd, w, "--uri", uri, "--drop", "--seed", "300", "--quiet"}, bad...)
			if cmd == "sweep" {
				args = append(args, "--concurrency", "1,2", "--step-duration", "1s")
			} else {
				args = append(args, "--duration", "1s")
			}
			code, _, stderr := runCLI(t, context.Background(), nil, args...)
			if code != ExitOutput || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("%s %v: exit %d, stderr %q; want %d, one line", cmd, bad, code, stderr, ExitOutput)
			}
			if n := d.count(name, "c"); n != 50 {
				t.Fatalf("%s %v: the collection went from 50 to %d documents before the refusal", cmd, bad, n)
			}
		}
	}
}
