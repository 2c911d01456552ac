package procstat

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Listener is the process that owns the listening TCP socket of a port on
// this host: a server is known by what it is (the socket its clients
// connect to), never by a process id it reports (a server in a container
// reports its own ids) or by when it started.
type Listener struct {
	Pid  int64
	Name string // its command name, from /proc/PID/comm
}

// ListenerOf finds the process listening on port: the socket's inode in
// /proc/net/tcp and tcp6 (state 0A, LISTEN), then the process whose
// /proc/PID/fd holds socket:[inode]. Processes of other users cannot be
// looked into, and the error says so when none of those visible owns it.
func ListenerOf(port int) (Listener, error) {
	inodes := map[string]bool{}
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for ino := range listeningInodes(string(b), port) {
			inodes[ino] = true
		}
	}
	if len(inodes) == 0 {
		return Listener{}, fmt.Errorf("no process on this host listens on port %d (the server is elsewhere, or in another network namespace)", port)
	}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		pid, err := strconv.ParseInt(filepath.Base(d), 10, 64)
		if err != nil {
			continue
		}
		if owns(d, inodes) {
			name, _ := os.ReadFile(filepath.Join(d, "comm"))
			return Listener{Pid: pid, Name: strings.TrimSpace(string(name))}, nil
		}
	}
	return Listener{}, fmt.Errorf("a socket listens on port %d, but no process this user may look into owns it (another user's, or a container's)", port)
}

// owns says whether the process at dir holds one of the sockets.
func owns(dir string, inodes map[string]bool) bool {
	fds, err := os.ReadDir(filepath.Join(dir, "fd"))
	if err != nil {
		return false
	}
	for _, fd := range fds {
		target, err := os.Readlink(filepath.Join(dir, "fd", fd.Name()))
		if err == nil && strings.HasPrefix(target, "socket:[") && inodes[strings.TrimSuffix(strings.TrimPrefix(target, "socket:["), "]")] {
			return true
		}
	}
	return false
}

// listeningInodes are the inodes of the sockets listening on port in a
// /proc/net/tcp table: "sl local_address rem_address st ... inode".
func listeningInodes(table string, port int) map[string]bool {
	out := map[string]bool{}
	for _, line := range strings.Split(table, "\n")[1:] {
		f := strings.Fields(line)
		if len(f) < 10 || f[3] != "0A" {
			continue
		}
		_, hexPort, ok := strings.Cut(f[1], ":")
		if p, err := strconv.ParseInt(hexPort, 16, 32); !ok || err != nil || int(p) != port {
			continue
		}
		if f[9] != "0" {
			out[f[9]] = true
		}
	}
	return out
}
