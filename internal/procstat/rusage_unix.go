//go:build unix

package procstat

import (
	"runtime"
	"syscall"
	"time"
)

// Read returns the process's usage now.
func Read() Usage {
	var ru syscall.Rusage
	now := time.Now()
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return Usage{At: now}
	}
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	rss := int64(ru.Maxrss)
	if runtime.GOOS != "darwin" { // Linux and the BSDs count kilobytes, macOS bytes
		rss *= 1024
	}
	return Usage{CPU: cpu, MaxRSS: lifetimeRSS(rss), At: now}
}
