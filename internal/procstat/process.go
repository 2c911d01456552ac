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
// host that does not report its own CPU.
func ProcessCPU(pid int64) (user, system time.Duration, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0, fmt.Errorf("the CPU of process %d: %w", pid, err)
	}
	return parseStat(string(b))
}

// parseStat reads utime and stime, the 14th and 15th fields of a stat
// line. The command name (2nd field, in parentheses) may hold spaces and
// parentheses, so the fields are counted from the last ')'.
func parseStat(line string) (user, system time.Duration, err error) {
	i := strings.LastIndexByte(line, ')')
	if i < 0 {
		return 0, 0, fmt.Errorf("/proc stat line without a command name: %.40q", line)
	}
	f := strings.Fields(line[i+1:]) // f[0] is the 3rd field, the state
	if len(f) < 13 {
		return 0, 0, fmt.Errorf("/proc stat line with %d fields, want at least 15", len(f)+2)
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	s, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("/proc stat line: utime %q, stime %q are not numbers", f[11], f[12])
	}
	tick := time.Second / clockTicks
	return time.Duration(u) * tick, time.Duration(s) * tick, nil
}
