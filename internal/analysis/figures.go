package analysis

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
)

// Operation classes: what a table's read and write columns add up.
const (
	ReadClass  = "read"
	WriteClass = "write"
)

// readTypes are the operation types that only read. Everything else writes:
// inserts, updates, deletes, findOneAndUpdate, upserts, and readModifyWrite
// and transactions, which read and then write (their latency is a write's).
var readTypes = map[string]bool{
	"find": true, "findOne": true, "aggregate": true, "countDocuments": true,
	"distinct": true, "estimatedDocumentCount": true,
}

// ClassOf is the class of an operation type: ReadClass or WriteClass; ""
// when the type is unknown (a results file that does not say).
func ClassOf(opType string) string {
	switch {
	case opType == "":
		return ""
	case readTypes[opType]:
		return ReadClass
	}
	return WriteClass
}

// ClassFigures adds the operations of one class: their counts and their
// histograms (so the percentiles are those of all their samples, never an
// average of percentiles). nil when res has no operation of the class.
func ClassFigures(res *results.Result, class string) (*results.Class, error) {
	var h *hdrhistogram.Histogram
	c := &results.Class{}
	for i := range res.Operations {
		op := &res.Operations[i]
		if !op.InMix() || ClassOf(op.Type) != class { // steps are parts of their transaction, a write
			continue
		}
		oh, err := op.LatencyHistogram()
		if err != nil {
			return nil, fmt.Errorf("operation %s: %w", op.Name, err)
		}
		if h == nil {
			h = oh
		} else {
			h.Merge(oh)
		}
		c.Operations += op.Count
	}
	if h == nil {
		return nil, nil
	}
	if res.DurationSeconds > 0 {
		c.Throughput = round3(float64(c.Operations) / res.DurationSeconds)
	}
	c.Latency = latencySummary(h)
	return c, nil
}

// latencySummary summarizes a histogram of microseconds in ms, as
// results.Result does.
func latencySummary(h *hdrhistogram.Histogram) results.Latency {
	if h.TotalCount() == 0 {
		return results.Latency{}
	}
	q := h.ValueAtPercentilesSlice([]float64{50, 95, 99, 99.9})
	ms := func(us int64) float64 { return float64(min(us, metrics.HighestMicros)) / 1000 }
	return results.Latency{
		Min: ms(h.Min()), Avg: round3(h.Mean() / 1000), P50: ms(q[0]), P95: ms(q[1]), P99: ms(q[2]),
		P999: ms(q[3]), Max: ms(h.Max()), StdDev: round3(h.StdDev() / 1000),
	}
}

// StepFiguresOf computes one step's table row from its result.
func StepFiguresOf(level float64, complete bool, res *results.Result) (results.StepFigures, error) {
	f := results.StepFigures{
		Level: level, Complete: complete, Throughput: res.Totals.Throughput,
		Operations: res.Totals.Operations, Errors: res.Totals.Errors, Latency: res.Totals.Latency,
	}
	var err error
	if f.Read, err = ClassFigures(res, ReadClass); err != nil {
		return f, err
	}
	if f.Write, err = ClassFigures(res, WriteClass); err != nil {
		return f, err
	}
	if c := res.Client; c != nil {
		u, per := c.Utilization, c.CPUPerOpMicros
		f.ClientCPU, f.ClientCores, f.CPUPerOpMicros, f.ClientCPUAvailable = &u, c.Cores, &per, c.AvailableCPU
		f.SchedulerBusy = c.SchedulerBusy
	}
	f.Dropped = res.Dropped()
	if res.Load.Type == results.Closed || res.Load.Type == "" {
		f.InFlightLimit = inFlightLimit(res)
		f.AboveInFlightLimit = res.Load.LatencyClock() == metrics.FromReady || (f.InFlightLimit > 0 && level > float64(f.InFlightLimit))
	}
	f.Server = ServerFiguresOf(res.Server)
	return f, nil
}

// ServerFiguresOf summarizes server telemetry: the worst sample of each
// gauge, the average rate of each counter. nil without samples.
func ServerFiguresOf(s *results.Server) *results.ServerFigures {
	if s == nil || len(s.Samples) == 0 {
		return nil
	}
	f := &results.ServerFigures{}
	var cpu, cpuDt, pages, pagesDt float64
	var haveCPU, havePages, availableReported bool
	for _, sm := range s.Samples {
		if c := sm.Connections; c != nil && c.Available != nil && *c.Available > 0 {
			availableReported = true
		}
	}
	for _, sm := range s.Samples {
		if t, ok := sm.CPU.Seconds(); ok && sm.Dt > 0 {
			cpu += t
			cpuDt += sm.Dt
			haveCPU = true
		}
		if c := sm.Cache; c != nil {
			if c.MaxBytes != nil && *c.MaxBytes > 0 {
				if c.BytesInUse != nil {
					f.CacheUsed = maxPtr(f.CacheUsed, float64(*c.BytesInUse)/float64(*c.MaxBytes))
				}
				if c.DirtyBytes != nil {
					f.CacheDirty = maxPtr(f.CacheDirty, float64(*c.DirtyBytes)/float64(*c.MaxBytes))
				}
			}
			if c.PagesReadIntoCache != nil && sm.Dt > 0 {
				pages += float64(*c.PagesReadIntoCache)
				pagesDt += sm.Dt
				havePages = true
			}
		}
		// connections.available at 0 in every sample, with connections
		// open, is a counter the server does not keep (SecantusDB reports
		// 0), not an exhausted pool: no limit is named from it.
		if c := sm.Connections; c != nil && c.Current != nil && c.Available != nil && *c.Current+*c.Available > 0 && availableReported {
			f.Connections = maxPtr(f.Connections, float64(*c.Current)/float64(*c.Current+*c.Available))
		}
		if t := sm.Tickets; t != nil {
			for _, v := range []*int64{t.ReadAvailable, t.WriteAvailable} {
				if v != nil && (f.TicketsMin == nil || *v < *f.TicketsMin) {
					n := *v
					f.TicketsMin = &n
				}
			}
		}
		for _, m := range sm.Replication {
			if m.LagSeconds != nil {
				f.LagSeconds = maxPtr(f.LagSeconds, *m.LagSeconds)
			}
		}
	}
	if haveCPU && cpuDt > 0 {
		v := round3(cpu / cpuDt)
		f.CPUCores = &v
	}
	if havePages && pagesDt > 0 {
		v := round3(pages / pagesDt)
		f.PagesReadPerSec = &v
	}
	if *f == (results.ServerFigures{}) {
		return nil
	}
	return f
}

func deref(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

func maxPtr(p *float64, v float64) *float64 {
	v = round4(v)
	if p == nil || v > *p {
		return &v
	}
	return p
}

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }
func round4(f float64) float64 { return math.Round(f*10000) / 10000 }

// inFlightLimit is the most operations a closed-loop run could have in
// flight: the load section's maxInFlight, or in a file written before it
// existed the recorded connection pool (the driver's default, 100, if none).
func inFlightLimit(res *results.Result) int {
	if res.Load.MaxInFlight > 0 {
		return res.Load.MaxInFlight
	}
	var c struct {
		Connection struct {
			MaxPoolSize int `json:"maxPoolSize"`
		} `json:"connection"`
		Run struct {
			MaxInFlight int `json:"maxInFlight"`
		} `json:"run"`
	}
	if len(res.Config) == 0 || json.Unmarshal(res.Config, &c) != nil {
		return 0
	}
	limit := c.Connection.MaxPoolSize
	if limit <= 0 {
		limit = config.DefaultMaxPoolSize
	}
	if m := c.Run.MaxInFlight; m > 0 && m < limit {
		limit = m
	}
	return limit
}
