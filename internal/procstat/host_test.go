package procstat

import (
	"fmt"
	"testing"
	"time"
)

// TestParseCPUList: the kernel's list format (Documentation/admin-guide/cputopology).
func TestParseCPUList(t *testing.T) {
	got, err := ParseCPUList("0-2,5,7-8")
	if err != nil || fmt.Sprint(got) != "[0 1 2 5 7 8]" {
		t.Errorf("0-2,5,7-8: %v %v", got, err)
	}
	if _, err := ParseCPUList("3-1"); err == nil {
		t.Error("a backwards range read")
	}
}

// TestCoreBusy: each cpuN line's busy time, in the host's ticks.
func TestCoreBusy(t *testing.T) {
	h, err := parseProcStat("cpu  10 0 10 100 0 0 0 0 0 0\ncpu0 10 0 0 50 0 0 0 0 0 0\ncpu1 0 0 10 50 0 0 0 0 0 0\n", time.Now())
	tick := time.Second / clockTicks
	if err != nil || h.CPUs != 2 || h.CoreBusy[0] != 10*tick || h.CoreBusy[1] != 10*tick {
		t.Errorf("%+v %v", h, err)
	}
}
