// Package resultstest holds deterministic results for tests of the result
// model and of the packages that read it: runs recorded through the metrics
// as a run records them and built as a run builds its result (runs.go), and
// synthetic results and sweeps with chosen figures (sweeps.go). No server.
package resultstest

import (
	"encoding/json"
	"time"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
)

// T0 is when every fixture run and synthetic sweep starts; a fixture run's
// measured phase follows a 10 s warm-up.
var T0 = time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)

const Warmup = 10 * time.Second

// Run is a deterministic fake run: what a caller would hand to Build.
type Run struct {
	Info   results.RunInfo
	Totals *metrics.Totals
	Series []results.IntervalSummary
	Ivs    []*metrics.Interval
}

// ClosedRun is five 1 s intervals of a closed-loop run with three
// operations: one healthy, one with errors and an overflowing latency, and
// one never executed.
func ClosedRun() *Run {
	ops := []string{"find_by_id", "update_seats", "insert_booking"}
	r := metrics.NewRecorder(ops, metrics.Options{Shards: 2})
	return Record(r, BaseInfo(results.LoadModel{Type: results.Closed, Concurrency: 64}), func(s *metrics.Shard, sec, i int) {
		s.Record(0, time.Duration(200+(i*7919)%3000)*time.Microsecond)
		if i < 1770 {
			s.Record(1, time.Duration(900+(i*104729)%4000)*time.Microsecond)
		}
		if sec == 2 && i < 12 {
			s.RecordError(1, "DuplicateKey(11000)")
		}
		if sec == 4 && i < 3 {
			s.RecordError(1, "timeout")
		}
		if sec == 3 && i == 0 {
			s.Record(1, 2*time.Hour) // beyond the histogram: clamped and noted
		}
	})
}

// OpenRun is an open-loop run whose response times include queueing that
// service times do not.
func OpenRun() *Run {
	ops := []string{"find_by_id", "update_seats"}
	r := metrics.NewRecorder(ops, metrics.Options{Shards: 2, Service: true})
	info := BaseInfo(results.LoadModel{Type: results.Open, Rate: 5000, Concurrency: 256})
	return Record(r, info, func(s *metrics.Shard, sec, i int) {
		svc := time.Duration(300+(i*7919)%2000) * time.Microsecond
		queue := time.Duration(sec*i%500) * time.Microsecond
		s.RecordService(i%2, svc+queue, svc)
	})
}

// BaseInfo is what a caller knows of a fixture run beyond its measurements.
func BaseInfo(load results.LoadModel) results.RunInfo {
	return results.RunInfo{
		Tool:       results.Tool{Name: "mongoload", Version: "0.1.0-test"},
		Label:      "baseline",
		Workload:   results.Workload{Name: "flights", Source: "workloads/flights.yaml"},
		Config:     json.RawMessage(`{"uri":"mongodb://app:REDACTED@localhost:27017","run":{"duration":"5s","warmup":"10s"}}`),
		ConfigLine: "uri=mongodb://app:REDACTED@localhost:27017 duration=5s warmup=10s",
		Load:       load,
		OpTypes:    map[string]string{"find_by_id": "find", "update_seats": "updateOne", "insert_booking": "insertOne"},
		StartedAt:  T0,
		EndedAt:    T0.Add(Warmup + 5*time.Second),
		Warmup:     Warmup,
		Outcome:    results.Completed,
	}
}

// Record runs five 1 s intervals of 4,120 iterations of each, after a
// warm-up whose samples Reset must discard.
func Record(r *metrics.Recorder, info results.RunInfo, each func(s *metrics.Shard, sec, i int)) *Run {
	each(r.Shard(0), 0, 0) // warm-up sample
	start := T0.Add(Warmup)
	r.Reset(start)
	out := &Run{Info: info, Totals: metrics.NewTotals(r.Ops(), info.Load.Type == results.Open)}
	for sec := 1; sec <= 5; sec++ {
		for i := range 4120 {
			each(r.Shard(i), sec, i)
		}
		iv := r.Interval(start.Add(time.Duration(sec) * time.Second))
		out.Ivs = append(out.Ivs, iv)
		out.Totals.Add(iv)
		iv.RunTotals = out.Totals // as the engine's collector does
		out.Series = append(out.Series, results.Summarize(iv, time.Duration(sec)*time.Second))
	}
	return out
}

// Result builds the run's result, as a run does at its end.
func (r *Run) Result() *results.Result { return results.Build(r.Info, r.Totals, r.Series) }
