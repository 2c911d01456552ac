package run

import (
	"fmt"
	"math"
	"runtime"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/engine"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/procstat"
	"github.com/mongoload/mongoload/internal/results"
)

// collect builds the result from what the engine (res) and the client's
// usage measured and the faults injected.
func (m *measurement) collect(res *engine.Result, injected []results.InjectedFault) *results.Result {
	cfg := m.cfg
	if res.Abandoned > 0 && m.s.client != nil {
		m.s.client.Unresponsive() // do not wait for its goodbye either
	}
	if m.s.client != nil {
		m.s.client.CommandPhase("outside") // the final sample, the statistics and explain come after the measured phase
	}
	info := &m.info
	info.EndedAt = time.Now()
	info.Client = clientUsage(m.u0, procstat.Read())
	interference := m.host.stop()
	info.Client.SetupPeakRSSBytes = m.setupPeak
	if m.peak != nil {
		info.Client.MeasuredPeakRSSBytes, info.Client.MeasuredPeakRSSExact = m.peak.Peak()
	}
	// Read a moment apart: the lifetime peak is never below the phases'.
	info.Client.MaxRSSBytes = max(info.Client.MaxRSSBytes, info.Client.MeasuredPeakRSSBytes, m.setupPeak)
	info.Outcome, info.Reason = results.Outcome(res.Outcome), res.Reason
	recordRaise(info.Memory, m.memFollow)
	result := results.Build(*info, res.Totals, m.series)
	results.BuildFaults(result, spans(res.Gaps), res.Abandoned, injected)
	result.Interference = interference
	result.Cost = CostOf(cfg)
	if m.s.client != nil {
		for _, n := range m.s.client.Notices() { // fallbacks found while running, such as an unsupported bulkWrite
			fmt.Fprintln(m.log, "notice: "+n)
			result.Notes = append(result.Notes, n)
		}
	}
	if Noop(cfg) {
		result.Notes = append(result.Notes, "--target noop: no server; every operation was answered at once, so these figures are mongoload's own ceiling on this machine for this workload")
	}
	if c := result.Client; c != nil {
		c.PeakUtilization, c.SaturatedIntervals = math.Round(m.cpu.peak*1000)/1000, m.cpu.hot
	}
	return result
}

// CostOf is the configured monthly cost, nil when none was given.
func CostOf(cfg *config.Config) *results.Cost {
	if cfg.Run.MonthlyCost <= 0 {
		return nil
	}
	return &results.Cost{Monthly: cfg.Run.MonthlyCost, Currency: cfg.Run.Currency}
}

// FileHead opens a sweep or findmax file of schema written by this
// mongoload (version) for cfg's workload.
func FileHead(cfg *config.Config, schema, version string) results.FileHead {
	return results.FileHead{Schema: schema, Tool: results.Tool{Name: "mongoload", Version: version}, Label: cfg.Run.Label,
		Cost: CostOf(cfg), Workload: results.Workload{Name: cfg.Name, Source: cfg.Source}}
}

// StepSpan starts a sweep's or findmax's timing now: steps of step after
// cfg's warmup, cfg's cooldown between them, completed until told else.
func StepSpan(cfg *config.Config, step time.Duration) results.StepSpan {
	return results.StepSpan{StepSeconds: step.Seconds(), WarmupSeconds: cfg.Run.Warmup.D().Seconds(),
		CooldownSeconds: cfg.Run.Cooldown.D().Seconds(), StartedAt: time.Now(), Outcome: results.Completed}
}

// clientUsage is the client's CPU and memory between two readings.
func clientUsage(u0, u procstat.Usage) *results.ClientUsage {
	cpu, _ := u.Since(u0)
	return &results.ClientUsage{CPUSeconds: cpu.Seconds(), Utilization: u.Utilization(u0), Cores: runtime.NumCPU(),
		AvailableCPU: math.Round(procstat.AvailableCPU()*1000) / 1000, MaxRSSBytes: u.MaxRSS}
}

// spans converts the engine's availability gaps for the report.
func spans(gaps []engine.Gap) []results.Span {
	out := make([]results.Span, len(gaps))
	for i, g := range gaps {
		out[i] = results.Span{Start: g.Start, End: g.End, Open: g.Open}
	}
	return out
}

// cpuClock reads this process's CPU time once per interval, on the
// engine's collecting goroutine, and stamps it on the interval before
// anything summarises it.
type cpuClock struct {
	last procstat.Usage
	// peak and hot summarize the intervals (hot: at results.Saturated or
	// more); written on the collecting goroutine, read after the run.
	peak float64
	hot  int
}

// start begins the first interval's CPU: the measured phase's, not the warm-up's.
func (c *cpuClock) start() { c.last = procstat.Read() }

func (c *cpuClock) stamp(iv *metrics.Interval) {
	u := procstat.Read()
	d := u.CPU - c.last.CPU
	c.last = u
	iv.ClientCPU = &d
	if dt := iv.End.Sub(iv.Start); dt >= 200*time.Millisecond {
		share := procstat.Share(d, dt)
		c.peak = max(c.peak, share)
		if share >= results.Saturated {
			c.hot++
		}
	}
}
