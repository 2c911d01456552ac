package procstat

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// HostTimes is a reading of the whole host's CPU from /proc/stat (Linux):
// the time its CPUs were busy and the time the hypervisor stole, summed
// over every CPU, and how many CPUs it has.
type HostTimes struct {
	Busy, Steal time.Duration
	CPUs        int
	At          time.Time
	// CoreBusy is each CPU's busy time, by its number (the cpuN lines),
	// to tell other work on the cores the server and the client run on
	// from work beside them.
	CoreBusy map[int]time.Duration
}

// ReadHost reads /proc/stat's first line: busy is user, nice, system, irq
// and softirq (guest time is inside user already); idle and iowait are
// not busy, steal is the hypervisor's and counted apart.
func ReadHost() (HostTimes, error) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return HostTimes{}, fmt.Errorf("the host's CPU: %w", err)
	}
	return parseProcStat(string(b), time.Now())
}

func parseProcStat(text string, at time.Time) (HostTimes, error) {
	h := HostTimes{At: at, CoreBusy: map[int]time.Duration{}}
	var first []string
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) > 0 && f[0] == "cpu":
			first = f[1:]
		case len(f) > 0 && strings.HasPrefix(f[0], "cpu"):
			h.CPUs++
			if n, err := strconv.Atoi(f[0][3:]); err == nil && len(f) >= 8 {
				h.CoreBusy[n] = busyOf(f[1:8])
			}
		}
	}
	if len(first) < 8 {
		return h, fmt.Errorf("/proc/stat has no full cpu line (%d fields)", len(first))
	}
	var v [8]int64
	for i := range v {
		n, err := strconv.ParseInt(first[i], 10, 64)
		if err != nil {
			return h, fmt.Errorf("/proc/stat cpu field %d %q is not a number", i+1, first[i])
		}
		v[i] = n
	}
	tick := time.Second / clockTicks
	// user nice system idle iowait irq softirq steal
	h.Busy = time.Duration(v[0]+v[1]+v[2]+v[5]+v[6]) * tick
	h.Steal = time.Duration(v[7]) * tick
	return h, nil
}

// busyOf is user + nice + system + irq + softirq of a cpuN line's fields.
func busyOf(f []string) time.Duration {
	var sum int64
	for _, i := range []int{0, 1, 2, 5, 6} {
		n, _ := strconv.ParseInt(f[i], 10, 64)
		sum += n
	}
	return time.Duration(sum) * (time.Second / clockTicks)
}

// Affinity is the CPUs a process may run on (Cpus_allowed_list of
// /proc/PID/status), ascending.
func Affinity(pid int64) ([]int, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return nil, fmt.Errorf("the CPUs of process %d: %w", pid, err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Cpus_allowed_list:"); ok {
			return ParseCPUList(strings.TrimSpace(v))
		}
	}
	return nil, fmt.Errorf("/proc/%d/status has no Cpus_allowed_list", pid)
}

// ParseCPUList reads a kernel CPU list such as "0-3,6".
func ParseCPUList(s string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return nil, fmt.Errorf("CPU list %q: %w", s, err)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return nil, fmt.Errorf("CPU list %q: bad range %q", s, part)
			}
		}
		for c := a; c <= b; c++ {
			out = append(out, c)
		}
	}
	return out, nil
}

// ProcessTimes is a process's user plus system CPU so far, from
// /proc/PID/stat, with no identity check (the caller identified it).
func ProcessTimes(pid int64) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("the CPU of process %d: %w", pid, err)
	}
	u, s, _, err := parseStat(string(b))
	return u + s, err
}

// SelfTimes is this process's CPU so far, in the same ticks as the host's.
func SelfTimes() (time.Duration, error) { return ProcessTimes(int64(os.Getpid())) }
