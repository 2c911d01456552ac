package procstat

import (
	"os"
	"strings"
	"testing"
	"time"
)

var started = time.Now() // about when this test process started

// TestParseStat reads utime and stime past a command name with spaces and
// parentheses; the oracle is the line's own fields at 100 ticks a second.
func TestParseStat(t *testing.T) {
	line := "2005 (secantusd (rs) x) S 1 2005 2005 0 -1 4194560 6143 0 0 0 1234 567 0 0 20 0 9 0 1000 2224764 58000 18446744073709551615\n"
	u, s, st, err := parseStat(line)
	if err != nil || u != 12340*time.Millisecond || s != 5670*time.Millisecond || st != 10*time.Second {
		t.Fatalf("parseStat = %v, %v, %v, %v; want 12.34s, 5.67s, 10s", u, s, st, err)
	}
	for _, bad := range []string{"", "1 (x) S 1 2", "1 (x) S 1 2 3 4 5 6 7 8 9 a b c 0 0 0 0 0 0 0 0"} {
		if _, _, _, err := parseStat(bad); err == nil {
			t.Errorf("parseStat(%q): no error", bad)
		}
	}
}

// TestProcessCPUSelf reads this process's own line, which must grow as it
// burns CPU (by a tick of 10 ms at least; up to 5 s of spinning on a busy
// machine).
func TestProcessCPUSelf(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skipf("no /proc here: %v", err)
	}
	up := time.Since(started)
	u0, s0, err := ProcessCPU(int64(os.Getpid()), up)
	if err != nil {
		t.Fatal(err)
	}
	// A process that says it has run an hour longer is another one.
	if _, _, err := ProcessCPU(int64(os.Getpid()), up+time.Hour); err == nil || !strings.Contains(err.Error(), "another process") {
		t.Errorf("an age an hour off: %v, want another process", err)
	}
	for start := time.Now(); time.Since(start) < 5*time.Second; {
		for i := 0; i < 1e6; i++ {
		}
		if u1, s1, _ := ProcessCPU(int64(os.Getpid()), time.Since(started)); u1+s1 > u0+s0 {
			return
		}
	}
	t.Errorf("CPU did not grow over 5 s of spinning: %v", u0+s0)
}
