package report

import (
	"fmt"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
)

// What a result's figures mean, in words for report headers.

// ClockText says in words what l's latencies measure, for report headers.
func ClockText(l results.LoadModel) string {
	wait := "waiting for an in-flight place included"
	if l.MaxInFlight > 0 {
		wait = "waiting for one of the " + results.Thousands(int64(l.MaxInFlight)) + " in-flight places included"
	}
	switch l.LatencyClock() {
	case metrics.FromScheduled:
		return "from each operation's scheduled start to its reply (queueing included); service time from the actual send"
	case metrics.FromDue:
		return "from when each session's operation was due (after its think time) to its reply, " + wait + "; service time from the actual send"
	case metrics.FromReady:
		return "from when each worker was ready to send to its reply, " + wait + ": the workers outnumber the in-flight places"
	}
	return "from sending each operation to its reply"
}

// DropText states an open loop's drops beside its percentiles.
func DropText(s *results.Schedule) string {
	return fmt.Sprintf("%s of %s scheduled operations (%.3f%%) were never sent: the percentiles leave them out; --slo counts each as an infinite latency",
		results.Thousands(s.Dropped), results.Thousands(s.Scheduled), 100*s.DroppedShare)
}

// MemoryText states the measured phase's peak memory apart from the whole
// process's, whose peak includes seeding and loading.
func MemoryText(c *results.ClientUsage) string {
	mb := func(b int64) string { return fmt.Sprintf("%.1f MB", float64(b)/(1<<20)) }
	if c.MeasuredPeakRSSBytes <= 0 {
		return "peak RSS " + mb(c.MaxRSSBytes) + " (whole process)"
	}
	s := "peak RSS " + mb(c.MeasuredPeakRSSBytes) + " measured phase"
	if !c.MeasuredPeakRSSExact {
		s += " (sampled)"
	}
	if c.SetupPeakRSSBytes > 0 {
		s += ", " + mb(c.SetupPeakRSSBytes) + " before it (connecting, seeding, warm-up)"
	}
	return s + ", " + mb(c.MaxRSSBytes) + " whole process"
}
