package report

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites the file with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (run go test -update to accept it):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// t0 is when every fixture run starts; the measured phase follows a 10 s warm-up.
var t0 = time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)

const warmup = 10 * time.Second

// run is a deterministic fake run: what a caller would hand to Build.
type run struct {
	info   results.RunInfo
	totals *metrics.Totals
	series []results.IntervalSummary
	ivs    []*metrics.Interval
}

// closedRun is five 1 s intervals of a closed-loop run with three
// operations: one healthy, one with errors and an overflowing latency, and
// one never executed.
func closedRun() *run {
	ops := []string{"find_by_id", "update_seats", "insert_booking"}
	r := metrics.NewRecorder(ops, metrics.Options{Shards: 2})
	return record(r, baseInfo(results.LoadModel{Type: results.Closed, Concurrency: 64}), func(s *metrics.Shard, sec, i int) {
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

// openRun is an open-loop run whose response times include queueing that
// service times do not.
func openRun() *run {
	ops := []string{"find_by_id", "update_seats"}
	r := metrics.NewRecorder(ops, metrics.Options{Shards: 2, Service: true})
	info := baseInfo(results.LoadModel{Type: results.Open, Rate: 5000, Concurrency: 256})
	return record(r, info, func(s *metrics.Shard, sec, i int) {
		svc := time.Duration(300+(i*7919)%2000) * time.Microsecond
		queue := time.Duration(sec*i%500) * time.Microsecond
		s.RecordService(i%2, svc+queue, svc)
	})
}

func baseInfo(load results.LoadModel) results.RunInfo {
	return results.RunInfo{
		Tool:       results.Tool{Name: "mongoload", Version: "0.1.0-test"},
		Label:      "baseline",
		Workload:   results.Workload{Name: "flights", Source: "workloads/flights.yaml"},
		Config:     json.RawMessage(`{"uri":"mongodb://app:REDACTED@localhost:27017","run":{"duration":"5s","warmup":"10s"}}`),
		ConfigLine: "uri=mongodb://app:REDACTED@localhost:27017 duration=5s warmup=10s",
		Load:       load,
		OpTypes:    map[string]string{"find_by_id": "find", "update_seats": "updateOne", "insert_booking": "insertOne"},
		StartedAt:  t0,
		EndedAt:    t0.Add(warmup + 5*time.Second),
		Warmup:     warmup,
		Outcome:    results.Completed,
	}
}

// record runs five 1 s intervals of 4,120 iterations of each, after a
// warm-up whose samples Reset must discard.
func record(r *metrics.Recorder, info results.RunInfo, each func(s *metrics.Shard, sec, i int)) *run {
	each(r.Shard(0), 0, 0) // warm-up sample
	start := t0.Add(warmup)
	r.Reset(start)
	out := &run{info: info, totals: metrics.NewTotals(r.Ops(), info.Load.Type == results.Open)}
	for sec := 1; sec <= 5; sec++ {
		for i := range 4120 {
			each(r.Shard(i), sec, i)
		}
		iv := r.Interval(start.Add(time.Duration(sec) * time.Second))
		out.ivs = append(out.ivs, iv)
		out.totals.Add(iv)
		iv.RunTotals = out.totals // as the engine's collector does
		out.series = append(out.series, results.Summarize(iv, time.Duration(sec)*time.Second))
	}
	return out
}

func (r *run) result() *results.Result { return results.Build(r.info, r.totals, r.series) }
