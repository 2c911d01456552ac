// Package testserver gives integration tests the URI of a real MongoDB-wire
// server on loopback. It uses MONGOLOAD_TEST_URI when set (make test starts
// one server for the whole suite); otherwise it starts one with
// scripts/testserver for this test binary and stops it when the tests end.
// Tests skip only when MONGOLOAD_SKIP_INTEGRATION=1 says so.
package testserver

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	once     sync.Once
	uri      string
	startErr error
	started  string // name of the server this binary started, "" if none
)

// URI returns the test server's URI, starting one if needed, or skips t when
// MONGOLOAD_SKIP_INTEGRATION=1.
func URI(t testing.TB) string {
	t.Helper()
	if os.Getenv("MONGOLOAD_SKIP_INTEGRATION") == "1" {
		t.Skip("integration test skipped: MONGOLOAD_SKIP_INTEGRATION=1")
	}
	once.Do(start)
	if startErr != nil {
		t.Fatalf("no test server: %v (set MONGOLOAD_TEST_URI, or MONGOLOAD_SKIP_INTEGRATION=1 to skip)", startErr)
	}
	return uri
}

func start() {
	if uri = os.Getenv("MONGOLOAD_TEST_URI"); uri != "" {
		return
	}
	script, err := Script()
	if err != nil {
		startErr = err
		return
	}
	name := fmt.Sprintf("gotest-%d", os.Getpid())
	out, err := exec.Command(script, "start", name).Output()
	if err != nil {
		startErr = fmt.Errorf("%s start: %w", script, err)
		return
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	uri, started = lines[len(lines)-1], name
}

// Main runs the tests of a package and then stops the server it started.
// Use it as: func TestMain(m *testing.M) { testserver.Main(m) }.
func Main(m *testing.M) {
	code := m.Run()
	if started != "" {
		if script, err := Script(); err == nil {
			_ = exec.Command(script, "stop", started).Run()
		}
	}
	os.Exit(code)
}

// Script finds scripts/testserver by walking up from the working directory.
func Script() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, "scripts", "testserver")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("scripts/testserver not found above the working directory")
		}
		dir = parent
	}
}

// Own starts a server for t alone (one it may stop, pause or kill) and
// returns its URI and process ID; it is stopped when t ends.
func Own(t testing.TB) (uri string, pid int) {
	t.Helper()
	URI(t) // honours MONGOLOAD_SKIP_INTEGRATION
	script, err := Script()
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("own-%d-%s", os.Getpid(), strings.NewReplacer("/", "_", " ", "_").Replace(t.Name()))
	out, err := exec.Command(script, "start", name).Output()
	if err != nil {
		t.Fatalf("%s start %s: %v", script, name, err)
	}
	t.Cleanup(func() { _ = exec.Command(script, "stop", name).Run() })
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	uri = lines[len(lines)-1]
	state, err := exec.Command(script, "pid", name).Output()
	if err != nil {
		t.Fatalf("%s pid %s: %v", script, name, err)
	}
	if _, err := fmt.Sscan(string(state), &pid); err != nil {
		t.Fatalf("pid of %s: %q", name, state)
	}
	return uri, pid
}

// Timing marks a test whose assertions are about wall-clock timing (pacing
// accuracy, a paused server's latency): under the race detector the client
// runs several times slower and such assertions say nothing, so it skips
// there, and `make test` runs these tests in a second pass without -race,
// one package at a time: the Makefile's TIMING_TESTS names each test that
// calls Timing (TestTimingList keeps the two in step).
func Timing(t testing.TB) {
	t.Helper()
	if Race {
		t.Skip("timing test: runs in make test's second pass, without the race detector")
	}
}
