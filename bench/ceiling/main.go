// Command ceiling measures mongoload's own ceiling: how many operations per
// second of CPU it can generate, build, record and report when the server
// costs nothing. It runs a built-in workload through the real engine (the
// closed loop, the operation mix, request building with the workload's
// generators, the sharded recorder, one snapshot per interval, the interval
// series and the JSON results file, the final report) with a no-op executor
// in place of the driver, the analogue of YCSB's BasicDB and genny's
// canaries: mongoload run --target noop. Run it with GOMAXPROCS=1 for
// "per core".
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
	"github.com/mongoload/mongoload/internal/procstat"
	"github.com/mongoload/mongoload/internal/run"
	"github.com/mongoload/mongoload/internal/workload"
)

var (
	name     = flag.String("workload", "ycsb-a", "built-in workload")
	workers  = flag.Int("concurrency", 8, "closed-loop workers")
	duration = flag.Duration("duration", 5*time.Second, "how long")
	records  = flag.Int64("records", 10000, "keys every collection is taken to hold")
)

func main() {
	flag.Parse()
	if err := ceiling(); err != nil {
		fmt.Fprintln(os.Stderr, "ceiling:", err)
		os.Exit(1)
	}
}

// ceiling is mongoload run --target noop on a built-in workload, through
// the library every command uses.
func ceiling() error {
	data, ok := builtin.Get(*name)
	if !ok {
		return fmt.Errorf("no built-in workload %q", *name)
	}
	cfg, err := config.Parse(data, "builtin:"+*name)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "ceiling")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	r := &cfg.Run
	r.Target, r.Concurrency, r.Duration, r.Warmup, r.Operations = config.TargetNoop, *workers, config.Duration(*duration), 0, 0
	r.Seed, r.Interval, r.OperationSeed, r.Out = *records, config.Duration(time.Second), 1, filepath.Join(dir, "r.json")
	for i := range cfg.Collections {
		cfg.Collections[i].Seed = 0 // every collection holds --records
	}
	if es := cfg.Validate(); len(es) > 0 {
		return es
	}
	plan, err := workload.Compile(cfg)
	if err != nil {
		return err
	}
	u0 := procstat.Read()
	res, err := run.Run(context.Background(), cfg, plan, run.Options{})
	if err != nil {
		return err
	}
	if err := res.Err(); err != nil {
		return err
	}
	cpu, _ := procstat.Read().Since(u0)
	ops := res.Result.Totals.Operations
	fmt.Printf("ops=%d cpu_s=%.3f ops_per_cpu_s=%.0f\n", ops, cpu.Seconds(), float64(ops)/cpu.Seconds())
	return nil
}
