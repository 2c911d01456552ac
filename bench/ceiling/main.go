// Command ceiling measures mongoload's own ceiling: how many operations per
// second of CPU it can generate, build, record and report when the server
// costs nothing. It runs a built-in workload through the real engine (the
// closed loop, the operation mix, request building with the workload's
// generators, the sharded recorder, one snapshot per interval, the interval
// series and the JSON results file, the final report) with a no-op executor
// in place of the driver, the analogue of YCSB's BasicDB and genny's
// canaries. Run it with GOMAXPROCS=1 for "per core".
//
// It prints "ops=N cpu_s=C ops_per_cpu_s=R".
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mongoload/mongoload/internal/builtin"
	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/engine"
	"github.com/mongoload/mongoload/internal/engine/enginetest"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/procstat"
	"github.com/mongoload/mongoload/internal/report"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/sink"
	"github.com/mongoload/mongoload/internal/workload"
)

var (
	name     = flag.String("workload", "ycsb-a", "built-in workload")
	workers  = flag.Int("concurrency", 8, "closed-loop workers")
	duration = flag.Duration("duration", 5*time.Second, "how long")
	records  = flag.Int64("records", 10000, "keys every collection is taken to hold")
)

// series keeps the interval summaries for the result and passes intervals
// on, as mongoload run does.
type series struct {
	next      engine.Sink
	summaries []results.IntervalSummary
}

func (s *series) Interval(iv *metrics.Interval, elapsed time.Duration) {
	s.summaries = append(s.summaries, results.Summarize(iv, elapsed))
	s.next.Interval(iv, elapsed)
}

func main() {
	flag.Parse()
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "ceiling:", err)
		os.Exit(1)
	}
}

func run() error {
	data, ok := builtin.Get(*name)
	if !ok {
		return fmt.Errorf("no built-in workload %q", *name)
	}
	cfg, err := config.Parse(data, "builtin:"+*name)
	if err != nil {
		return err
	}
	if es := cfg.Validate(); len(es) > 0 {
		return es
	}
	plan, err := workload.Compile(cfg)
	if err != nil {
		return err
	}
	for _, col := range plan.Collections {
		col.Keys.Reset(0, *records)
	}
	execs := make([]engine.Executor, len(plan.Ops))
	for i := range execs {
		execs[i] = enginetest.Answer{Returned: 1, Shaped: 1} // sends nothing: "succeeds" at once with one document
	}
	opts := engine.Options{Concurrency: *workers, MaxInFlight: 100, Duration: *duration, Interval: time.Second, RandomSeed: 1}
	rec := metrics.NewRecorder(plan.OpNames(), metrics.Options{Service: engine.Service(opts)})
	dir, err := os.MkdirTemp("", "ceiling")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	info := results.RunInfo{Tool: results.Tool{Name: "mongoload"}}
	fan := sink.NewFanout(report.NewJSONSink(filepath.Join(dir, "r.json"), info))
	s := &series{next: fan}
	u0 := procstat.Read()
	res := engine.Run(context.Background(), plan, execs, rec, s, opts)
	result := results.Build(info, res.Totals, s.summaries)
	if err := fan.Close(result); err != nil {
		return err
	}
	cpu, _ := procstat.Read().Since(u0)
	ops := result.Totals.Operations
	fmt.Printf("ops=%d cpu_s=%.3f ops_per_cpu_s=%.0f\n", ops, cpu.Seconds(), float64(ops)/cpu.Seconds())
	return nil
}
