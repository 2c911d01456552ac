package procstat

import (
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// TestAvailableCPU: the CPU a process may use is the least of GOMAXPROCS
// and every quota of its cgroup and the cgroup's ancestors (v2 cpu.max,
// v1 cfs quota over period), not the host's core count.
func TestAvailableCPU(t *testing.T) {
	v2 := func(cg string, files map[string]string) fstest.MapFS {
		m := fstest.MapFS{"proc/self/cgroup": {Data: []byte(cg)}}
		for p, d := range files {
			m[p] = &fstest.MapFile{Data: []byte(d)}
		}
		return m
	}
	tests := []struct {
		name  string
		fs    fstest.MapFS
		procs int
		want  float64
	}{
		{"no cgroup file", fstest.MapFS{}, 8, 8},
		{"v2 without a quota", v2("0::/a\n", map[string]string{"sys/fs/cgroup/a/cpu.max": "max 100000\n"}), 8, 8},
		{"v2 quota of 1.5 cores", v2("0::/a\n", map[string]string{"sys/fs/cgroup/a/cpu.max": "150000 100000\n"}), 8, 1.5},
		{"v2 quota on an ancestor", v2("0::/a/b\n", map[string]string{"sys/fs/cgroup/a/cpu.max": "50000 100000", "sys/fs/cgroup/a/b/cpu.max": "max 100000"}), 8, 0.5},
		{"GOMAXPROCS tighter than the quota", v2("0::/a\n", map[string]string{"sys/fs/cgroup/a/cpu.max": "400000 100000"}), 2, 2},
		{"v1 cfs quota", v2("4:memory:/x\n2:cpu,cpuacct:/k\n", map[string]string{"sys/fs/cgroup/cpu,cpuacct/k/cpu.cfs_quota_us": "250000\n", "sys/fs/cgroup/cpu,cpuacct/k/cpu.cfs_period_us": "100000\n"}), 8, 2.5},
		{"v1 without a quota", v2("2:cpu,cpuacct:/k\n", map[string]string{"sys/fs/cgroup/cpu,cpuacct/k/cpu.cfs_quota_us": "-1", "sys/fs/cgroup/cpu,cpuacct/k/cpu.cfs_period_us": "100000"}), 8, 8},
	}
	for _, tt := range tests {
		if got := availableFrom(tt.fs, tt.procs); got != tt.want {
			t.Errorf("%s: %g cores, want %g", tt.name, got, tt.want)
		}
	}
	// Utilization is a share of that CPU: one CPU-second per second.
	u0 := Usage{At: time.Unix(0, 0)}
	u := Usage{CPU: time.Second, At: time.Unix(1, 0)}
	if got, want := u.Utilization(u0), 1/AvailableCPU(); got != want || AvailableCPU() > float64(runtime.GOMAXPROCS(0)) {
		t.Errorf("utilization %g, want %g (available %g, GOMAXPROCS %d)", got, want, AvailableCPU(), runtime.GOMAXPROCS(0))
	}
}

// TestAvailableCPUFollowsGOMAXPROCS: a process run with GOMAXPROCS=1 on a
// machine of several cores is saturated at one core.
func TestAvailableCPUFollowsGOMAXPROCS(t *testing.T) {
	if os.Getenv("PROCSTAT_CHILD") == "1" {
		os.Stdout.WriteString(strconv.FormatFloat(AvailableCPU(), 'f', -1, 64) + "\n")
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestAvailableCPUFollowsGOMAXPROCS$")
	cmd.Env = append(os.Environ(), "PROCSTAT_CHILD=1", "GOMAXPROCS=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.SplitN(string(out), "\n", 2)[0]; got != "1" {
		t.Errorf("AvailableCPU under GOMAXPROCS=1 = %q, want 1 (the host has %d)", got, runtime.NumCPU())
	}
}

// TestMeasuredPeakLeavesSetupOut: memory used and freed before a phase
// (seeding) is not in the phase's peak, and still in the process's. The
// oracle is the sizes the test itself touches.
func TestMeasuredPeakLeavesSetupOut(t *testing.T) {
	if _, ok := PeakRSS(); !ok {
		t.Skip("no /proc/self/status here")
	}
	const setup, phase = 192 << 20, 32 << 20
	touch := func(n int) []byte {
		b := make([]byte, n)
		for i := 0; i < n; i += 4096 {
			b[i] = 1
		}
		return b
	}
	b := touch(setup)
	runtime.KeepAlive(b)
	b = nil
	debug.FreeOSMemory() // returns the pages to the system: RSS falls
	p := StartPeak()
	c := touch(phase)
	p.Sample()
	peak, exact := p.Peak()
	runtime.KeepAlive(c)
	cur, _ := CurrentRSS()
	life := Read().MaxRSS
	if !exact {
		t.Logf("no kernel peak reset here: sampled %d bytes", peak)
	}
	if peak < phase || peak > cur+phase || life < setup || life-peak < setup/2 {
		t.Errorf("measured peak %d MB (now %d MB), whole process %d MB: want at least the phase's %d MB and well below the setup's %d MB", peak>>20, cur>>20, life>>20, phase>>20, setup>>20)
	}
}
