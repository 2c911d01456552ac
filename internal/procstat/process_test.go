package procstat

import (
	"os"
	"testing"
	"time"
)

// TestParseStat reads utime and stime past a command name with spaces and
// parentheses; the oracle is the line's own fields at 100 ticks a second.
func TestParseStat(t *testing.T) {
	line := "2005 (secantusd (rs) x) S 1 2005 2005 0 -1 4194560 6143 0 0 0 1234 567 0 0 20 0 9 0 1000 2224764 58000 18446744073709551615\n"
	u, s, err := parseStat(line)
	if err != nil || u != 12340*time.Millisecond || s != 5670*time.Millisecond {
		t.Fatalf("parseStat = %v, %v, %v; want 12.34s, 5.67s", u, s, err)
	}
	for _, bad := range []string{"", "1 (x) S 1 2", "1 (x) S 1 2 3 4 5 6 7 8 9 a b c"} {
		if _, _, err := parseStat(bad); err == nil {
			t.Errorf("parseStat(%q): no error", bad)
		}
	}
}

// TestProcessCPUSelf reads this process's own line, which must grow as it
// burns CPU (by a tick of 10 ms at least; up to 5 s of spinning on a busy
// machine).
func TestProcessCPUSelf(t *testing.T) {
	u0, s0, err := ProcessCPU(int64(os.Getpid()))
	if err != nil {
		t.Skipf("no /proc here: %v", err)
	}
	for start := time.Now(); time.Since(start) < 5*time.Second; {
		for i := 0; i < 1e6; i++ {
		}
		if u1, s1, _ := ProcessCPU(int64(os.Getpid())); u1+s1 > u0+s0 {
			return
		}
	}
	t.Errorf("CPU did not grow over 5 s of spinning: %v", u0+s0)
}
