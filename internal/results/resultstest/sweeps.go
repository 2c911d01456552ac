package resultstest

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
)

// Synthetic results and sweeps for tests of the packages that read them
// (analysis, report, the HTML report, the command line): real histograms
// and interval series, no server.

// Step describes one synthetic step: its load level, the throughput and
// average latency it should show, and optionally the client's CPU share,
// errors and server telemetry.
type Step struct {
	Level      float64
	Throughput float64 // successful operations per second
	LatencyMs  float64 // average latency; the samples spread from 0.5x to 1.5x
	ClientCPU  float64 // 0..1; 0 leaves the client usage out
	Errors     int64   // failed operations per interval
	Server     *results.Server
	// Partial makes the step an interrupted one.
	Partial bool
}

// Seconds is the measured length of a synthetic step: three intervals.
const Seconds = 3

// The operations of a synthetic result: 60% reads, 40% writes at 1.5x the
// reads' latency.
var ops = []string{"find_flight", "update_seats"}

var opTypes = map[string]string{"find_flight": "findOne", "update_seats": "updateOne"}

// Result is the result of one synthetic step started at start.
func Result(load results.LoadModel, st Step, start time.Time, label string) *results.Result {
	rec := metrics.NewRecorder(ops, metrics.Options{Shards: 1})
	rec.Reset(start)
	totals := metrics.NewTotals(ops, false)
	var series []results.IntervalSummary
	n := int(st.Throughput + 0.5)
	for sec := 1; sec <= Seconds; sec++ {
		s := rec.Shard(0)
		for i := range n {
			spread := 0.5 + float64((i*7919+sec*104729)%1000)/1000 // 0.5 .. 1.5
			op, lat := 0, st.LatencyMs*spread/1.2                  // reads 1/1.2 of the mean
			if i%5 >= 3 {
				op, lat = 1, st.LatencyMs*spread*1.5/1.2 // writes 1.5x the reads: the mean stays LatencyMs
			}
			s.Record(op, time.Duration(lat*float64(time.Millisecond)))
		}
		for i := int64(0); i < st.Errors; i++ {
			s.RecordError(1, "WriteConflict(112)")
		}
		end := start.Add(time.Duration(sec) * time.Second)
		iv := rec.Interval(end)
		totals.Add(iv)
		series = append(series, results.Summarize(iv, time.Duration(sec)*time.Second))
	}
	cfg, _ := json.Marshal(map[string]any{"connection": map[string]any{"uri": "mongodb://db1.example.net:27017"}, "run": map[string]any{"duration": "3s"}})
	info := results.RunInfo{
		Tool: results.Tool{Name: "mongoload", Version: "0.1.0-test"}, Label: label,
		Workload: results.Workload{Name: "flights", Source: "builtin:default"}, Config: cfg,
		ConfigLine: fmt.Sprintf("workload=flights %s", describe(load)), Load: load, OpTypes: opTypes,
		StartedAt: start, EndedAt: start.Add(Seconds * time.Second), Outcome: results.Completed,
	}
	if st.Partial {
		info.Outcome, info.Reason = results.Interrupted, "interrupted by the user"
	}
	if st.ClientCPU > 0 {
		info.Client = &results.ClientUsage{CPUSeconds: st.ClientCPU * 2 * Seconds, Utilization: st.ClientCPU, Cores: 2, MaxRSSBytes: 50 << 20}
	}
	res := results.Build(info, totals, series)
	res.Server = st.Server
	return res
}

func describe(l results.LoadModel) string {
	switch l.Type {
	case results.Open:
		return fmt.Sprintf("rate=%g", l.Rate)
	case results.Sessions:
		return fmt.Sprintf("sessions=%d", l.Sessions)
	}
	return fmt.Sprintf("concurrency=%d", l.Concurrency)
}

// Sweep is a synthetic sweep of param ("concurrency", "rate" or
// "sessions") over the steps, 20 s apart, not yet analysed.
func Sweep(param, label string, steps []Step) *results.Sweep {
	typ := map[string]string{"concurrency": results.Closed, "rate": results.Open, "sessions": results.Sessions}[param]
	sw := &results.Sweep{
		FileHead: results.FileHead{Schema: results.SweepSchema, Tool: results.Tool{Name: "mongoload", Version: "0.1.0-test"}, Label: label,
			Workload: results.Workload{Name: "flights", Source: "builtin:default"}},
		Load:     results.SweepLoad{Type: typ, Parameter: param},
		StepSpan: results.StepSpan{StepSeconds: Seconds, WarmupSeconds: 2, CooldownSeconds: 15, StartedAt: T0, Outcome: results.Completed},
		Steps:    []results.SweepStep{},
	}
	at := T0
	for _, st := range steps {
		load := results.LoadModel{Type: typ}
		switch param {
		case "rate":
			load.Rate = st.Level
		case "sessions":
			load.Sessions, load.ThinkTime = int(st.Level), "500ms"
		default:
			load.Concurrency = int(st.Level)
		}
		res := Result(load, st, at.Add(2*time.Second), label)
		sw.Load.Levels = append(sw.Load.Levels, st.Level)
		sw.Steps = append(sw.Steps, results.SweepStep{Level: st.Level, Complete: !st.Partial, Result: res})
		at = at.Add(20 * time.Second)
	}
	sw.EndedAt = at
	if len(steps) > 0 && steps[len(steps)-1].Partial {
		sw.Outcome, sw.Reason = results.Interrupted, "interrupted during the last step"
	}
	return sw
}

// Seed000 is workload #1 of seed 000 (100% find by shard key, read-only
// in the blog; here with the synthetic mix), scaled down 10x in throughput
// so tests stay fast.
func Seed000() []Step {
	rows := [][3]float64{{4, 263.5, 1.51}, {8, 649.3, 1.23}, {16, 1067.8, 1.49}, {32, 1301.8, 2.45}, {48, 1232.2, 3.89},
		{64, 1354.8, 4.71}, {80, 1361.0, 5.86}, {96, 1257.3, 7.62}, {128, 1330.9, 9.60}}
	out := make([]Step, len(rows))
	for i, r := range rows {
		out[i] = Step{Level: r[0], Throughput: r[1], LatencyMs: r[2], ClientCPU: 0.05 + 0.002*r[0]}
	}
	return out
}

// ServerSample is a one-sample server section with the given cache use and
// CPU (nil leaves a field unreported).
func ServerSample(cacheUsed, cacheDirty float64, cpuCores *float64) *results.Server {
	max := int64(1 << 30)
	used, dirty := int64(cacheUsed*float64(max)), int64(cacheDirty*float64(max))
	s := results.ServerSample{T: 1, Dt: 1, At: T0, Cache: &results.Cache{BytesInUse: &used, DirtyBytes: &dirty, MaxBytes: &max}}
	if cpuCores != nil {
		u := *cpuCores
		s.CPU = &results.CPU{UserSeconds: &u}
	}
	return &results.Server{Host: "db1", Version: "8.0.4", IntervalSeconds: 1, Samples: []results.ServerSample{s}}
}

// The operations of Transactions: a transaction "pay" of two steps, and a
// read. Steps come after the mix's operations, as in a plan's metrics order.
var (
	TxnOps     = []string{"pay", "lookup", "pay/debit", "pay/ledger"}
	TxnParents = []string{"", "", "pay", "pay"}
	txnTypes   = map[string]string{"pay": "transaction", "lookup": "findOne", "pay/debit": "updateOne", "pay/ledger": "insertOne"}
)

// What Transactions records in each of its TxnSeconds one-second
// intervals: PayN transactions at PayMs, each with its two steps (debit at
// DebitMs, ledger at LedgerMs), LookupN reads at LookupMs, and PayErrors
// failed transactions.
const (
	TxnSeconds        = 2
	PayN, LookupN     = 100, 50
	PayMs, LookupMs   = 50, 2
	DebitMs, LedgerMs = 10, 20
	PayErrors         = 4
	TxnServiceShiftMs = 5 // open loop: the service time is the latency less this
)

// Transactions is a result of a transaction workload whose figures the
// caller can compute from the constants above, and its intervals; open
// makes it an open-loop run with service times.
func Transactions(open bool) (*results.Result, []*metrics.Interval) {
	rec := metrics.NewRecorder(TxnOps, metrics.Options{Shards: 1, Service: open, Parents: TxnParents})
	rec.Reset(T0)
	totals := rec.NewTotals()
	var series []results.IntervalSummary
	var ivs []*metrics.Interval
	ms := func(v int) time.Duration { return time.Duration(v) * time.Millisecond }
	for sec := 1; sec <= TxnSeconds; sec++ {
		s := rec.Shard(0)
		record := func(op int, lat time.Duration) {
			if open && TxnParents[op] == "" {
				s.RecordService(op, lat, lat-ms(TxnServiceShiftMs))
			} else {
				s.Record(op, lat)
			}
		}
		for range PayN {
			record(0, ms(PayMs))
			record(2, ms(DebitMs))
			record(3, ms(LedgerMs))
		}
		for range LookupN {
			record(1, ms(LookupMs))
		}
		for range PayErrors {
			s.RecordError(0, "WriteConflict(112)")
		}
		end := T0.Add(time.Duration(sec) * time.Second)
		iv := rec.Interval(end)
		totals.Add(iv)
		ivs = append(ivs, iv)
		series = append(series, results.Summarize(iv, time.Duration(sec)*time.Second))
	}
	load := results.LoadModel{Type: results.Sessions, Sessions: 50, ThinkTime: "50ms"}
	if open {
		load = results.LoadModel{Type: results.Open, Rate: 200, Concurrency: 100}
	}
	info := results.RunInfo{
		Tool: results.Tool{Name: "mongoload", Version: "0.1.0-test"}, Workload: results.Workload{Name: "payments", Source: "builtin:payments"},
		Load: load, OpTypes: txnTypes, StartedAt: T0, EndedAt: T0.Add(TxnSeconds * time.Second), Outcome: results.Completed,
	}
	return results.Build(info, totals, series), ivs
}
