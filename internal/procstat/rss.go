package procstat

import (
	"bufio"
	"bytes"
	"os"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
)

// Peak resident memory of one phase. The kernel keeps the process's peak
// RSS (VmHWM in /proc/self/status); on Linux writing "5" to
// /proc/self/clear_refs resets it to the current RSS, so the peak read at a
// phase's end is that phase's alone, whatever seeding or loading used
// before. Elsewhere a PeakSampler samples what it can.

// ResetPeakRSS starts a new peak RSS at the current RSS; false where the
// system cannot (then sample with a PeakSampler).
func ResetPeakRSS() bool {
	if v, ok := PeakRSS(); ok {
		notePeak(v) // the process-lifetime peak survives the reset
	}
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}

// lifetimePeak is the highest peak RSS seen before any reset: resetting
// VmHWM also lowers getrusage's ru_maxrss, and Read's MaxRSS must stay the
// whole process's peak.
var lifetimePeak atomic.Int64

func notePeak(v int64) {
	for {
		old := lifetimePeak.Load()
		if v <= old || lifetimePeak.CompareAndSwap(old, v) {
			return
		}
	}
}

// lifetimeRSS is the process-lifetime peak given getrusage's maxrss.
func lifetimeRSS(maxrss int64) int64 {
	v := max(maxrss, lifetimePeak.Load())
	if hwm, ok := PeakRSS(); ok {
		v = max(v, hwm)
	}
	return v
}

// PeakRSS is the peak resident memory since ResetPeakRSS (or the process's
// start), in bytes; false where the system does not say.
func PeakRSS() (int64, bool) { return statusKB("VmHWM:") }

// CurrentRSS is the resident memory now, in bytes; false where unknown.
func CurrentRSS() (int64, bool) { return statusKB("VmRSS:") }

func statusKB(field string) (int64, bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field); ok {
			f := strings.Fields(rest) // "  12345 kB"
			if len(f) >= 1 {
				if kb, err := strconv.ParseInt(f[0], 10, 64); err == nil {
					return kb * 1024, true
				}
			}
		}
	}
	return 0, false
}

// PeakSampler measures a phase's peak memory: the kernel's reset peak
// where it can (exact), else the largest of the samples taken with Sample
// (the current RSS, or the Go runtime's memory where the RSS is unknown;
// a peak between samples can be missed).
type PeakSampler struct {
	kernel bool
	max    int64
}

// StartPeak begins measuring a phase's peak memory.
func StartPeak() *PeakSampler {
	p := &PeakSampler{kernel: ResetPeakRSS()}
	if p.kernel {
		if _, ok := PeakRSS(); !ok {
			p.kernel = false
		}
	}
	p.Sample()
	return p
}

// Sample notes the memory now; call it once per interval.
func (p *PeakSampler) Sample() {
	if p.kernel {
		return
	}
	v, ok := CurrentRSS()
	if !ok {
		v = runtimeMemory()
	}
	p.max = max(p.max, v)
}

// Peak is the phase's peak resident memory in bytes, and whether it comes
// from the kernel's own peak (exact) rather than samples.
func (p *PeakSampler) Peak() (int64, bool) {
	if p.kernel {
		if v, ok := PeakRSS(); ok {
			return v, true
		}
	}
	p.Sample()
	return p.max, false
}

// runtimeMemory is the memory the Go runtime has mapped from the system,
// the closest figure to RSS where the system does not report RSS.
func runtimeMemory() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() == metrics.KindUint64 {
		return int64(s[0].Value.Uint64())
	}
	return 0
}
