package results

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"strconv"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/mongoload/mongoload/internal/metrics"
)

// RunInfo is what the caller knows about a run beyond its measurements.
type RunInfo struct {
	Tool     Tool
	Label    string
	Workload Workload
	// Config is the effective configuration as JSON, passwords already
	// redacted; ConfigLine is the same in one line, for the console.
	Config     json.RawMessage
	ConfigLine string
	Load       LoadModel
	// OpTypes maps operation names to their types ("find", "insertOne", ...).
	OpTypes map[string]string
	// OpParents maps a transaction step's name to its transaction's.
	OpParents map[string]string
	// StartedAt and EndedAt bound the whole run, warm-up included. The
	// result uses them only when no interval was measured; otherwise the
	// measured intervals bound it.
	StartedAt, EndedAt time.Time
	Warmup             time.Duration
	Outcome            Outcome
	Reason             string
	Notes              []string
	// Client is the generator's own use; Build fills CPUPerOpMicros and
	// Memory, the collector's setting the run ran under.
	Client *ClientUsage
	Memory *MemoryPolicy
	// DriverPath: "api" or "fast" (ClientUsage.DriverPath).
	DriverPath string
	// EmptyThreshold flags an operation whose share of empty results (a
	// read that returned nothing, an update that matched nothing, a delete
	// that deleted nothing) is above it, 0..1; 0 means DefaultEmptyThreshold,
	// and 1 or more never flags. MissCauses says, per operation, why its
	// filter may not reach the data, where the workload shows it.
	EmptyThreshold float64
	MissCauses     map[string]string
}

// DefaultEmptyThreshold is the share of empty results above which an
// operation is flagged.
const DefaultEmptyThreshold = 0.5

// Build assembles the result of a run from the whole-run totals (which must
// include every measured interval) and the interval series. Throughput is
// successful operations over the time the totals cover. Anything worth a
// reader's attention, such as clamped latencies, is added to Notes.
func Build(info RunInfo, totals *metrics.Totals, series []IntervalSummary) *Result {
	res := &Result{
		Schema:        Schema,
		Tool:          info.Tool,
		Label:         info.Label,
		Workload:      info.Workload,
		Config:        info.Config,
		ConfigLine:    info.ConfigLine,
		Load:          info.Load,
		StartedAt:     info.StartedAt,
		EndedAt:       info.EndedAt,
		WarmupSeconds: Round3(info.Warmup.Seconds()),
		Outcome:       info.Outcome,
		Reason:        info.Reason,
		Operations:    []Operation{},
		Intervals:     series,
		Notes:         append([]string(nil), info.Notes...),
	}
	if res.Intervals == nil {
		res.Intervals = []IntervalSummary{}
	}
	if totals == nil || totals.Intervals() == 0 {
		res.Notes = append(res.Notes, "nothing was measured: the run ended before its measured phase began")
	} else {
		res.StartedAt, res.EndedAt = totals.Start(), totals.End()
	}
	if totals != nil {
		res.addOperations(totals, info.OpTypes, info.OpParents)
		res.flagEmpty(info.EmptyThreshold, info.MissCauses)
	}
	if info.Load.Type == Open && totals != nil && res.DurationSeconds > 0 && totals.Load().Scheduled > 0 {
		l := totals.Load()
		res.Schedule = &Schedule{
			TargetRate:   Round3(float64(l.Scheduled) / res.DurationSeconds),
			AchievedRate: Round3(float64(res.Totals.Operations+res.Totals.Errors) / res.DurationSeconds),
			Scheduled:    l.Scheduled, Dropped: l.Dropped, Late: l.Late,
			DroppedShare: math.Round(float64(l.Dropped)/float64(l.Scheduled)*1e6) / 1e6,
		}
		if l.Dropped > 0 {
			res.Notes = append(res.Notes, fmt.Sprintf("%d scheduled operations were dropped: every in-flight place was taken (raise --max-in-flight, or the server cannot keep this rate)", l.Dropped))
		}
	}
	busy, lag := schedulerFigures(res.Intervals)
	if busy >= Saturated {
		res.Notes = append(res.Notes, fmt.Sprintf("the load model's scheduling goroutine (%s) was busy %.0f%% of its busiest interval and fell up to %s ms behind: one goroutine of mongoload was the limit, not the server; split the load over processes with --partition",
			schedulerName(info.Load.Type), 100*busy, strconv.FormatFloat(lag, 'f', -1, 64)))
	}
	if info.Client != nil {
		c := *info.Client
		c.SchedulerBusy, c.SchedulerLagMs, c.Memory, c.DriverPath = busy, lag, info.Memory, info.DriverPath
		if res.Totals.Operations > 0 {
			c.CPUPerOpMicros = Round3(c.CPUSeconds * 1e6 / float64(res.Totals.Operations))
		}
		res.Client = &c
	}
	return res
}

// addOperations fills Operations and Totals from totals.
func (res *Result) addOperations(totals *metrics.Totals, types, parents map[string]string) {
	secs := totals.Duration().Seconds()
	res.DurationSeconds = Round3(secs)
	all := metrics.NewHistogram()
	var allService *hdrhistogram.Histogram
	t := &res.Totals
	for i := range totals.Len() {
		o := totals.Op(i)
		op := res.operation(o, types[o.Name], secs)
		op.Parent = cmp.Or(o.Parent, parents[o.Name])
		res.Operations = append(res.Operations, op)
		if !op.InMix() {
			continue // a transaction's step: its transaction counts once in the totals
		}
		all.Merge(o.Latency)
		if o.Service != nil {
			if allService == nil {
				allService = metrics.NewHistogram()
			}
			allService.Merge(o.Service)
		}
		t.Operations += o.Count()
		t.Errors += o.ErrorCount()
		t.Overflow += o.Overflow
		if !o.Docs.IsZero() {
			if t.Docs == nil {
				t.Docs = &metrics.Docs{}
			}
			t.Docs.Add(o.Docs)
		}
		for class, n := range o.Errors {
			if t.ErrorsByClass == nil {
				t.ErrorsByClass = map[string]int64{}
			}
			t.ErrorsByClass[class] += n
		}
	}
	t.Throughput = perSecond(t.Operations, secs)
	t.Latency = latencyOf(all)
	if allService != nil {
		s := latencyOf(allService)
		t.Service = &s
	}
}

// operation summarizes one operation; problems become notes on res.
func (res *Result) operation(o *metrics.OpTotal, typ string, secs float64) Operation {
	op := Operation{
		Name:          o.Name,
		Type:          typ,
		Count:         o.Count(),
		Errors:        o.ErrorCount(),
		ErrorsByClass: maps.Clone(o.Errors),
		Outcomes:      maps.Clone(o.Outcomes),
		Throughput:    perSecond(o.Count(), secs),
		Latency:       latencyOf(o.Latency),
		Overflow:      o.Overflow,
		Docs:          docsOf(o.Docs),
		Histogram:     res.encode(o.Name, o.Latency),
	}
	// A step's latency is already measured from its own send; it has no
	// service time of its own, and an empty one would print as zeros.
	if o.Service != nil && o.InMix() {
		s := latencyOf(o.Service)
		op.Service = &s
		op.ServiceHistogram = res.encode(o.Name, o.Service)
	}
	if o.Overflow > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf(
			"%s: %s exceeded the histogram limit of %s and counted as %s: its max and top percentiles are understated",
			o.Name, Plural(o.Overflow, "latency", "latencies"), ShortDuration(metrics.Highest), ShortDuration(metrics.Highest)))
	}
	return op
}

// encode encodes h; a failure (which would be a bug) becomes a note rather
// than a missing field nobody notices.
func (res *Result) encode(name string, h *hdrhistogram.Histogram) string {
	s, err := metrics.EncodeHistogram(h)
	if err != nil {
		res.Notes = append(res.Notes, fmt.Sprintf("%s: histogram not saved: %v", name, err))
	}
	return s
}

// schedulerFigures are the busiest interval's scheduler share and the
// largest scheduler lag of a series (its Charted intervals: not a last one
// cut short).
func schedulerFigures(series []IntervalSummary) (busy, lagMs float64) {
	for _, iv := range Charted(series) {
		if l := iv.Load; l != nil {
			busy, lagMs = max(busy, l.SchedulerBusy), max(lagMs, l.SchedulerLagMs)
		}
	}
	return busy, lagMs
}

func schedulerName(load string) string {
	if load == Sessions {
		return "the sessions dispatcher"
	}
	return "the open-loop scheduler"
}
