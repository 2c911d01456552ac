// Package procstat reads what this process has consumed: CPU time and peak
// resident memory, so every result can say whether the load generator itself
// was the limit.
package procstat

import (
	"time"
)

// Usage is a reading of the process's resource use since it started.
type Usage struct {
	CPU time.Duration // user + system
	// MaxRSS is the peak resident memory of the whole process so far, in
	// bytes (seeding included; a phase's own peak is PeakSampler's); 0
	// where the system does not say.
	MaxRSS int64
	At     time.Time
}

// Since is the CPU used and the wall time passed between u0 and u.
func (u Usage) Since(u0 Usage) (cpu, wall time.Duration) {
	return u.CPU - u0.CPU, u.At.Sub(u0.At)
}

// Utilization is the share of the CPU the process may use (AvailableCPU)
// that it used between u0 and u (0..1).
func (u Usage) Utilization(u0 Usage) float64 {
	return Share(u.Since(u0))
}

// Share is the share of the CPU the process may use (AvailableCPU) that
// cpu seconds of CPU over wall seconds of time are (0..1; 0 when no time
// passed): the one definition of the client's CPU utilisation, for a run,
// an interval and the saturation check alike.
func Share(cpu, wall time.Duration) float64 {
	if wall <= 0 {
		return 0
	}
	return cpu.Seconds() / wall.Seconds() / AvailableCPU()
}
