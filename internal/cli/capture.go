package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/pflag"

	"github.com/mongoload/mongoload/internal/capture"
	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/run"
)

// captureSettings are the settings capture takes: how to connect.
var captureSettings = []string{"uri", "username", "auth-source", "connect-timeout", "server-selection-timeout"}

const captureArgs = "--uri URI --database DB [--duration 10m] --out FILE | --log FILE... | --export FILE | --query-stats | --compare SOURCE.yaml REPLAY.yaml"

// captureCommand turns what a deployment recorded into a workload file
// (docs/capture.md).
func captureCommand(ctx context.Context, args []string, o IO) error {
	fs := newFlags("capture", captureArgs, o)
	addSettingsOf(fs, captureSettings)
	dbs := fs.StringSlice("database", nil, "databases to capture (the profiler is per database), comma separated or repeated")
	duration := fs.Duration("duration", 0, "profiler: read what arrives during a window this long (a tailable cursor) instead of what it holds; $queryStats: the time between its two snapshots")
	enable := fs.Bool("enable-profiler", false, "turn the profiler on for the window (level 2, or level 1 with --slowms) and restore the previous level on every exit, Ctrl-C included; without it capture never changes it")
	slowms := fs.Int64("slowms", -1, "with --enable-profiler: profile at level 1 with this slowms instead of level 2")
	profiler := fs.Bool("profiler", false, "read the profiler as well as --log or --export")
	logs := fs.StringSlice("log", nil, "mongod's JSON log files (plain or .gz), in any order: read in time order")
	exports := fs.StringSlice("export", nil, "exported profiler documents, one extended JSON document a line (mongoexport of system.profile)")
	qs := fs.Bool("query-stats", false, "read $queryStats (MongoDB 8.0+, Atlas): two snapshots --duration apart")
	out := fs.String("out", "", "write the workload here (default: standard output)")
	sample := fs.Int("sample", 1000, "documents sampled ($sample) per collection for its template")
	minShare := fs.Float64("min-share", 0, "fold shapes under this share (0.01 for 1%) into a reported remainder")
	keep := fs.Bool("keep-values", false, "write the literals of high-cardinality fields (emails, names, ids) too; by default only low-cardinality values leave the source")
	redact := fs.Bool("redact-names", false, "replace database, collection and field names by stable hashes")
	scale := fs.Float64("scale", 1, "seed each collection with this fraction of the source's count (0.1 for a tenth)")
	rate := fs.Float64("rate", 0, "the rate to write when the capture cannot measure it (only slow operations recorded), operations per second")
	name := fs.String("name", "", "the workload's name (default: the databases' names)")
	maxImpact := fs.String("max-impact", "", "with --enable-profiler: the most the profiler may cost the source, in percent of its latency or throughput (20%): the window opens at sampleRate 0.01, raised while the source allows, lowered past the bound; past it at 0.01 capture restores the profiler and ends the window (exit 28)")
	sampleRate := fs.Float64("sample-rate", 1, "with --enable-profiler: the profiler's sampleRate for the window (0.1: one operation in ten), or with --max-impact the highest it may be raised to; the file's rate is divided by it")
	traceFile := fs.String("trace", "", "also write every captured operation, in order, with its values and times, to this file for mongoload replay (needs --keep-values; docs/replay.md)")
	compare := fs.Bool("compare", false, "compare two captures: SOURCE.yaml REPLAY.yaml, shape by shape")
	if err := parse(fs, args, 2); err != nil {
		return err
	}
	if *compare {
		return compareCaptures(fs.Args(), o)
	}
	if fs.NArg() > 0 {
		return withCode(ExitUsage, fmt.Errorf("unexpected argument %q: capture takes flags only (did you mean --compare?)", fs.Arg(0)))
	}
	opts := capture.Options{Databases: *dbs, Duration: *duration, Profiler: *profiler, EnableProfiler: *enable, SlowMS: *slowms,
		Logs: *logs, Exports: *exports, QueryStats: *qs, Sample: *sample, MinShare: *minShare, KeepValues: *keep,
		RedactNames: *redact, Scale: *scale, Rate: *rate,
		Progress: func(s string) { fmt.Fprintln(o.Stderr, "capture: "+s) }}
	opts.TracePath = *traceFile
	if err := opts.Check(*out); err != nil {
		return err
	}
	if err := guardFlags(fs, &opts, *maxImpact, *sampleRate); err != nil {
		return err
	}
	var conn *config.Config
	if uriGiven(fs, o) || len(*logs)+len(*exports) == 0 {
		var err error
		if conn, err = captureConfig(fs, o); err != nil {
			return err
		}
	}
	opts.StateDir, opts.Urgent = config.StateDir(o.Getenv), capture.AddUrgent
	res, err := capture.Capture(ctx, conn, o.Stderr, opts)
	_, protected := errors.AsType[*capture.ProtectedError](err)
	_, kinded := run.KindOf(err) // connecting, or writing the trace
	_, bad := config.KindOf(err) // the connection's settings
	if protected || kinded || bad {
		return err
	}
	if res != nil && res.TraceLine != "" {
		fmt.Fprintln(o.Stderr, res.TraceLine)
	}
	switch {
	case err != nil && ctx.Err() != nil:
		return withCode(ExitInterrupted, fmt.Errorf("interrupted: %w", err))
	case err != nil:
		return withCode(ExitUnreadable, err)
	}
	return res.Write(ctx, opts, *name, *out, o.Stdout, o.Stderr)
}

// uriGiven: a connection was asked for, by flag or environment.
func uriGiven(fs *pflag.FlagSet, o IO) bool {
	_, env := o.Getenv(config.Setting{Flag: "uri"}.Env())
	return fs.Changed("uri") || env
}

// captureConfig is the connection's settings, resolved as every
// command's are (config.Resolve).
func captureConfig(fs *pflag.FlagSet, o IO) (*config.Config, error) {
	return resolveSettings(fs, o, captureSettings)
}

// guardFlags reads --max-impact (20% or 20) and --sample-rate, which bound
// and set the profiler capture turns on.
func guardFlags(fs *pflag.FlagSet, opts *capture.Options, maxImpact string, sampleRate float64) error {
	if (fs.Changed("max-impact") || fs.Changed("sample-rate")) && !opts.EnableProfiler {
		return withCode(ExitUsage, errors.New("--max-impact and --sample-rate bound the profiler capture turns on: add --enable-profiler (and --duration)"))
	}
	if maxImpact != "" {
		v, err := capture.ParseImpact(maxImpact)
		if err != nil {
			return err
		}
		opts.MaxImpact = v
	}
	if err := config.CheckNumber(config.FlagSource("sample-rate"), sampleRate, config.SampleRateRange); err != nil {
		return err // as every numeric flag is checked (numbers.go): exit 12
	}
	opts.SampleRate = sampleRate
	return nil
}
