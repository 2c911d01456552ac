package testserver

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
)

// owned numbers the servers tests start, so that a test may own several.
var owned atomic.Int64

// Server is a test server a test owns and may break: stop, kill, pause,
// resume and restart it on the same port with its data (scripts/testserver).
type Server struct {
	t      testing.TB
	script string
	args   []string // the server's own arguments (TESTSERVER_ARGS)
	Name   string
	URI    string
}

// OwnServer starts a server for t alone, with the server's own arguments
// if any (such as "--auth": SCRAM authentication required); it is stopped,
// and its data removed, when t ends.
func OwnServer(t testing.TB, serverArgs ...string) *Server {
	t.Helper()
	URI(t) // honours MONGOLOAD_SKIP_INTEGRATION
	script, err := Script()
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{t: t, script: script, args: serverArgs,
		Name: fmt.Sprintf("fault-%d-%s-%d", os.Getpid(), strings.NewReplacer("/", "_", " ", "_").Replace(t.Name()), owned.Add(1))}
	s.URI = s.do("start")
	t.Cleanup(func() { _ = exec.Command(script, "stop", s.Name).Run() })
	return s
}

// do runs the script's command on this server and returns its last line.
func (s *Server) do(args ...string) string {
	s.t.Helper()
	cmd := exec.Command(s.script, append([]string{args[0], s.Name}, args[1:]...)...)
	if len(s.args) > 0 {
		cmd.Env = append(os.Environ(), "TESTSERVER_ARGS="+strings.Join(s.args, " "))
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		s.t.Fatalf("testserver %s %s: %v\n%s", args[0], s.Name, err, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return lines[len(lines)-1]
}

// Kill kills the server (SIGKILL); its data and port are kept for Start.
func (s *Server) Kill() { s.t.Helper(); s.do("kill") }

// Stop stops the server cleanly; its data and port are kept for Start.
func (s *Server) Stop() { s.t.Helper(); s.do("stop", "--keep-data") }

// Start starts a stopped or killed server again, on its port and data; it
// fails the test if the server comes back elsewhere.
func (s *Server) Start() {
	s.t.Helper()
	if uri := s.do("start"); uri != s.URI {
		s.t.Fatalf("server came back at %s, not %s", uri, s.URI)
	}
}

// PID is the server's process ID (for a test that signals it itself).
func (s *Server) PID() int {
	s.t.Helper()
	var pid int
	if _, err := fmt.Sscan(s.do("pid"), &pid); err != nil {
		s.t.Fatalf("pid of %s: %v", s.Name, err)
	}
	return pid
}

// Pause freezes the server (SIGSTOP); Resume lets it run again.
func (s *Server) Pause()  { s.t.Helper(); s.do("pause") }
func (s *Server) Resume() { s.t.Helper(); s.do("resume") }
