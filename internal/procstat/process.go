package procstat

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// clockTicks is the unit of /proc/PID/stat's times: USER_HZ, 100 on every
// Linux architecture Go runs on (sysconf(_SC_CLK_TCK) would need cgo).
const clockTicks = 100

// ProcessCPU is another process's CPU time so far, user and system, read
// from /proc/PID/stat (Linux): how mongoload measures a server on this
// host that does not report its own CPU. up is how long the process says
// it has run: a process of that id that started more than a minute apart
// from it is another one (a server in a container has its own ids), and
// an error says so rather than measuring the wrong process. An up of 0
// (not reported) skips the check.
func ProcessCPU(pid int64, up time.Duration) (user, system time.Duration, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0, fmt.Errorf("the CPU of process %d: %w", pid, err)
	}
	user, system, started, err := parseStat(string(b))
	if err != nil {
		return 0, 0, err
	}
	if boot, err := os.ReadFile("/proc/uptime"); err == nil && up > 0 { // 0: the server did not say
		var sysUp float64
		if _, err := fmt.Sscan(string(boot), &sysUp); err == nil {
			age := time.Duration(sysUp*float64(time.Second)) - started
			if d := age - up; d > time.Minute || d < -time.Minute {
				return 0, 0, fmt.Errorf("process %d on this host has run for %s, the server for %s: it is another process (a server in a container or on another host behind this address)", pid, age.Round(time.Second), up.Round(time.Second))
			}
		}
	}
	return user, system, nil
}

// parseStat reads utime, stime and starttime (since boot), the 14th, 15th
// and 22nd fields of a stat line. The command name (2nd field, in
// parentheses) may hold spaces and parentheses, so the fields are counted
// from the last ')'.
func parseStat(line string) (user, system, started time.Duration, err error) {
	i := strings.LastIndexByte(line, ')')
	if i < 0 {
		return 0, 0, 0, fmt.Errorf("/proc stat line without a command name: %.40q", line)
	}
	f := strings.Fields(line[i+1:]) // f[0] is the 3rd field, the state
	if len(f) < 20 {
		return 0, 0, 0, fmt.Errorf("/proc stat line with %d fields, want at least 22", len(f)+2)
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	s, err2 := strconv.ParseInt(f[12], 10, 64)
	st, err3 := strconv.ParseInt(f[19], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return 0, 0, 0, fmt.Errorf("/proc stat line: utime %q, stime %q, starttime %q are not all numbers", f[11], f[12], f[19])
	}
	tick := time.Second / clockTicks
	return time.Duration(u) * tick, time.Duration(s) * tick, time.Duration(st) * tick, nil
}
