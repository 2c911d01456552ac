package procstat

import (
	"bufio"
	"bytes"
	"io/fs"
	"math"
	"os"
	"path"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

// AvailableCPU is the CPU this process may use, in cores: the least of
// GOMAXPROCS (at most the CPUs it may run on) and its cgroup's CPU quota
// (cgroup v2 cpu.max, v1 cpu.cfs_quota_us over cpu.cfs_period_us, the
// tightest of its own cgroup and every ancestor), which may be fractional.
// A client is saturated when it uses all of this, however many cores the
// host has. Read once.
func AvailableCPU() float64 { return availableCPU() }

var availableCPU = sync.OnceValue(func() float64 {
	return availableFrom(os.DirFS("/"), runtime.GOMAXPROCS(0))
})

// availableFrom computes AvailableCPU from a root file system and GOMAXPROCS.
func availableFrom(root fs.FS, procs int) float64 {
	cores := float64(procs)
	if q, ok := cgroupQuota(root); ok {
		cores = math.Min(cores, q)
	}
	return cores
}

// cgroupQuota is the tightest CPU quota, in cores, of the cgroups that
// /proc/self/cgroup names; false when none sets one.
func cgroupQuota(root fs.FS) (float64, bool) {
	b, err := fs.ReadFile(root, "proc/self/cgroup")
	if err != nil {
		return 0, false
	}
	best, found := math.Inf(1), false
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		// hierarchy-ID:controllers:path; v2 is "0::/path".
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		var dir string
		switch {
		case parts[0] == "0" && parts[1] == "":
			dir = "sys/fs/cgroup"
		case hasController(parts[1], "cpu"):
			dir = "sys/fs/cgroup/" + parts[1]
		default:
			continue
		}
		// A limit on any ancestor applies too: walk up to the root.
		for p := path.Clean("/" + parts[2]); ; p = path.Dir(p) {
			if q, ok := quotaIn(root, path.Join(dir, p), parts[1] == ""); ok && q < best {
				best, found = q, true
			}
			if p == "/" {
				break
			}
		}
	}
	return best, found
}

func hasController(list, c string) bool {
	for _, x := range strings.Split(list, ",") {
		if x == c {
			return true
		}
	}
	return false
}

// quotaIn reads one cgroup directory's quota in cores.
func quotaIn(root fs.FS, dir string, v2 bool) (float64, bool) {
	if v2 {
		b, err := fs.ReadFile(root, path.Join(dir, "cpu.max"))
		if err != nil {
			return 0, false
		}
		f := strings.Fields(string(b)) // "max 100000" or "150000 100000"
		if len(f) != 2 || f[0] == "max" {
			return 0, false
		}
		return ratio(f[0], f[1])
	}
	q, err1 := fs.ReadFile(root, path.Join(dir, "cpu.cfs_quota_us"))
	p, err2 := fs.ReadFile(root, path.Join(dir, "cpu.cfs_period_us"))
	if err1 != nil || err2 != nil || strings.TrimSpace(string(q)) == "-1" {
		return 0, false
	}
	return ratio(strings.TrimSpace(string(q)), strings.TrimSpace(string(p)))
}

func ratio(quota, period string) (float64, bool) {
	q, err1 := strconv.ParseFloat(quota, 64)
	p, err2 := strconv.ParseFloat(period, 64)
	if err1 != nil || err2 != nil || q <= 0 || p <= 0 {
		return 0, false
	}
	return q / p, true
}
