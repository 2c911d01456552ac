package config

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/mempolicy"
)

// Setting is one option that the environment (MONGOLOAD_*) and a command-line
// flag can both set. One table serves both layers, so they cannot drift.
type Setting struct {
	Flag  string // flag name without dashes
	Usage string
	Bool  bool // a flag that needs no value
	// NoFlag keeps a secret out of the command line (visible in ps): environment only.
	NoFlag bool
	// GoEnv is the Go runtime's own variable for the same thing (GOGC,
	// GOMEMLIMIT), read when the MONGOLOAD_* one is not set: a user who
	// tuned Go's collector for the process keeps that tuning.
	GoEnv string
	// Join, when set, makes the flag repeatable: its values accumulate,
	// joined by Join into the one text Set reads, as the environment
	// variable writes several ("at 1s: stepdown;at 2s: stepdown").
	// Without it the last value given wins.
	Join string
	// Range is where a numeric setting's value means something (the
	// rule of number.go); nil for the others.
	Range *Range
	Set   func(c *Config, v string) error
}

// Repeatable says so in a setting's help.
func (s Setting) Repeatable() string {
	if s.Join == "" {
		return ""
	}
	return fmt.Sprintf(" (repeatable; in %s separate them with %q)", s.Env(), s.Join)
}

// Env is the environment variable for s: MONGOLOAD_ and the flag in upper snake case.
func (s Setting) Env() string {
	return EnvName(s.Flag)
}

// Settings lists every option settable by flag or environment.
var Settings = []Setting{
	{Flag: "uri", Usage: "connection string (default " + DefaultURI + ")", Set: func(c *Config, v string) error { c.Connection.URI = v; return nil }},
	{Flag: "username", Usage: "user name for authentication", Set: func(c *Config, v string) error { c.Connection.Username = v; return nil }},
	{Flag: "password", NoFlag: true, Usage: "password for authentication (environment only)", Set: func(c *Config, v string) error { c.Connection.Password = v; return nil }},
	{Flag: "auth-source", Usage: "database that holds the user", Set: func(c *Config, v string) error { c.Connection.AuthSource = v; return nil }},
	{Flag: "app-name", Usage: "appName reported to the server", Set: func(c *Config, v string) error { c.Connection.AppName = v; return nil }},
	{Flag: "read-preference", Usage: "primary, primaryPreferred, secondary, secondaryPreferred or nearest", Set: func(c *Config, v string) error { c.Connection.ReadPreference = v; return nil }},
	{Flag: "read-concern", Usage: "local, available, majority, linearizable or snapshot", Set: func(c *Config, v string) error { c.Connection.ReadConcern = v; return nil }},
	{Flag: "write-concern", Usage: "w: a number or a tag such as majority", Set: setWriteConcern},
	{Flag: "max-pool-size", Range: &PoolRange, Usage: "connection pool size", Set: uintSetter(PoolRange, func(c *Config) *uint64 { return &c.Connection.MaxPoolSize })},
	{Flag: "min-pool-size", Range: &PoolRange, Usage: "connections kept open", Set: uintSetter(PoolRange, func(c *Config) *uint64 { return &c.Connection.MinPoolSize })},
	{Flag: "compressors", Join: ",", Usage: "wire compressors, comma separated (zstd,snappy,zlib)", Set: func(c *Config, v string) error { c.Connection.Compressors = SplitList(v); return nil }},
	{Flag: "connect-timeout", Usage: "how long connecting may take", Set: durationSetter(func(c *Config) *Duration { return &c.Connection.Timeouts.Connect })},
	{Flag: "server-selection-timeout", Usage: "how long to wait for a usable server", Set: durationSetter(func(c *Config) *Duration { return &c.Connection.Timeouts.ServerSelection })},
	{Flag: "op-timeout", Usage: "client-side timeout of one operation (0: none)", Set: durationSetter(func(c *Config) *Duration { return &c.Connection.Timeouts.Operation })},
	{Flag: "driver-path", Usage: "api (the driver's public API) or fast (its lower layer for find, findOne, insertOne, update, replace and delete; default " + DefaultDriverPath + ")", Set: func(c *Config, v string) error { c.Connection.DriverPath = v; return nil }},
	{Flag: "concurrency", Range: &ConcurrencyRange, Usage: "closed-loop workers", Set: intSetter(ConcurrencyRange, func(c *Config) *int { return &c.Run.Concurrency })},
	{Flag: "duration", Usage: "length of the measured run (0 with --operations: until that count)", Set: durationSetter(func(c *Config) *Duration { return &c.Run.Duration })},
	{Flag: "operations", Range: &CountRange, Usage: "stop after this many measured operations", Set: int64Setter(CountRange, func(c *Config) *int64 { return &c.Run.Operations })},
	{Flag: "warmup", Usage: "warm-up before measuring (excluded from results)", Set: durationSetter(func(c *Config) *Duration { return &c.Run.Warmup })},
	{Flag: "grace", Usage: "after the duration, how long operations in flight may finish before they are abandoned and counted (default 5s)", Set: durationSetter(func(c *Config) *Duration { return &c.Run.Grace })},
	{Flag: "interval", Usage: "reporting interval", Set: durationSetter(func(c *Config) *Duration { return &c.Run.Interval })},
	{Flag: "seed", Range: &CountRange, Join: ",", Usage: "documents each collection holds before the run (missing ones are inserted): N for every collection, overriding the workload's own counts, or NAME=N,... for some", Set: setSeed},
	{Flag: "seed-scale", Range: &FactorRange, Usage: "multiply every seed count (collections' own included), e.g. 0.01 for a quick try", Set: floatSetter(FactorRange, func(c *Config) *float64 { return &c.Run.SeedScale })},
	{Flag: "seed-batch-size", Range: &BatchRange, Usage: "documents per insertMany while seeding", Set: intSetter(BatchRange, func(c *Config) *int { return &c.Run.SeedBatchSize })},
	{Flag: "seed-workers", Range: &WorkersRange, Usage: "parallel inserters while seeding (default 0: the smaller of --concurrency and 2 per core, 4 to 32)", Set: intSetter(WorkersRange, func(c *Config) *int { return &c.Run.SeedWorkers })},
	{Flag: "setup", Bool: true, Usage: "create collections and indexes before the run (default true)", Set: func(c *Config, v string) error {
		b, err := parseBool(v)
		c.Run.Setup = &b
		return err
	}},
	{Flag: "drop", Bool: true, Usage: "drop the workload's own collections first", Set: boolSetter(func(c *Config) *bool { return &c.Run.Drop })},
	{Flag: "write-to-source", Bool: true, Usage: "let a captured workload write to the deployment it was captured from (refused without it: that is the application's own data)", Set: boolSetter(func(c *Config) *bool { return &c.Run.WriteToSource })},
	{Flag: "allow-existing", Bool: true, Usage: "write to collections that mongoload did not create", Set: boolSetter(func(c *Config) *bool { return &c.Run.AllowExisting })},
	{Flag: "create-indexes", Bool: true, Usage: "build the workload's missing indexes on collections that existed before the run too (without it their indexes are left as they are)", Set: boolSetter(func(c *Config) *bool { return &c.Run.CreateIndexes })},
	{Flag: "replay-ddl", Bool: true, Usage: "replay: send the trace's collection and index commands (create, drop, renameCollection, createIndexes, dropIndexes, collMod...), only on collections mongoload created (an index build: --create-indexes too on others); without it they are not sent, and counted", Set: boolSetter(func(c *Config) *bool { return &c.Run.ReplayDDL })},
	{Flag: "replay-admin", Bool: true, Usage: "replay: send the trace's server administration (shutdown, users and roles, setParameter, fsync...) and the commands mongoload does not know, as they are: only against a server you can lose; without it they are not sent, and counted", Set: boolSetter(func(c *Config) *bool { return &c.Run.ReplayAdmin })},
	{Flag: "random-seed", Usage: "seed of the data (seeding, load) and of the value pools", Set: seedSetter(func(c *Config) *uint64 { return &c.Run.RandomSeed })},
	{Flag: "operation-seed", Usage: "seed of the operations: keys, values, mix (default: a fresh one per run, printed in the report; give it to replay a run)", Set: seedSetter(func(c *Config) *uint64 { return &c.Run.OperationSeed })},
	{Flag: "rate", Range: &RateRange, Usage: "open loop: operations per second, scheduled whatever the server does", Set: func(c *Config, v string) error {
		f, err := RateRange.Parse(v)
		if err != nil {
			return err
		}
		c.Run.SetRate(f)
		return nil
	}},
	{Flag: "rate-scale", Range: &FactorRange, Usage: "open loop: multiply the rate (the workload's own, such as a captured one, or --rate) by this factor, e.g. 3 for three times the captured traffic", Set: floatSetter(FactorRange, func(c *Config) *float64 { return &c.Run.RateScale })},
	{Flag: "arrival", Usage: "open loop: fixed or poisson arrivals", Set: func(c *Config, v string) error { c.Run.Arrival = v; return nil }},
	{Flag: "max-in-flight", Range: &WorkersRange, Usage: "operations in flight at once (open loop: beyond it they are dropped; default 1000)", Set: intSetter(WorkersRange, func(c *Config) *int { return &c.Run.MaxInFlight })},
	{Flag: "sessions", Range: &WorkersRange, Usage: "think-time sessions (simulated users)", Set: intSetter(WorkersRange, func(c *Config) *int { return &c.Run.Sessions })},
	{Flag: "think-time", Usage: "sessions: time between a session's operations", Set: durationSetter(func(c *Config) *Duration { return &c.Run.ThinkTime })},
	{Flag: "fault", Join: ";", Usage: "fault schedule entry: \"at 30s: stepdown\" asks the replica set primary to step down 30s into the measured phase", Set: setFaults},
	{Flag: "think-distribution", Usage: "sessions: fixed or exponential think time", Set: func(c *Config, v string) error { c.Run.ThinkDist = v; return nil }},
	{Flag: "stages", Usage: "ramp: DURATION:TARGET,... (rate in open loop, workers in closed loop)", Set: func(c *Config, v string) error {
		st, err := ParseStages(v)
		c.Run.Stages, c.Run.RepeatStages = st, false // the file's curve, its repetition included, is replaced
		return err
	}},
	{Flag: "partition", Usage: "i/N: this process's share of keys, rate and sessions", Set: func(c *Config, v string) error {
		if _, err := ParsePartition(v); err != nil {
			return err // refused here, once: the file's own value stays for Validate
		}
		c.Run.Partition = v
		return nil
	}},
	{Flag: "start-at", Usage: "wall-clock time (RFC 3339) at which the measured run starts, to start N processes together", Set: func(c *Config, v string) error {
		if _, err := time.Parse(time.RFC3339, v); err != nil {
			return fmt.Errorf("%q is not an RFC 3339 time such as 2026-11-23T10:00:00Z", v)
		}
		c.Run.StartAt = v
		return nil
	}},
	{Flag: "slo", Join: ",", Usage: "service-level objectives, e.g. p99<=20ms,throughput>=5000,errors<=0.1%; a miss exits 30", Set: func(c *Config, v string) error { c.Run.SLO = v; return nil }},
	{Flag: "repeat", Range: &RunsRange, Usage: "run the measured phase this many times (an SLA battery)", Set: intSetter(RunsRange, func(c *Config) *int { return &c.Run.Repeat })},
	{Flag: "cooldown", Usage: "pause between the runs of a battery or the steps of a sweep", Set: durationSetter(func(c *Config) *Duration { return &c.Run.Cooldown })},
	{Flag: "pass-quorum", Range: &RunsRange, Usage: "runs of a battery that must meet the SLO (default: all)", Set: intSetter(RunsRange, func(c *Config) *int { return &c.Run.PassQuorum })},
	{Flag: "out", Usage: "write the results as JSON to this file", Set: func(c *Config, v string) error { c.Run.Out = v; return nil }},
	{Flag: "label", Usage: "a name for this run in reports and comparisons", Set: func(c *Config, v string) error { c.Run.Label = v; return nil }},
	{Flag: "history", Usage: "after the run, append its result to this history store: a directory or a mongodb:// URI (mongoload history reads it; docs/history.md)", Set: func(c *Config, v string) error { c.Run.History = v; return nil }},
	{Flag: "monthly-cost", Range: &MoneyRange, Usage: "what the system under test costs per month, for throughput per cost in comparisons", Set: floatSetter(MoneyRange, func(c *Config) *float64 { return &c.Run.MonthlyCost })},
	{Flag: "currency", Usage: "the currency of --monthly-cost, such as EUR", Set: func(c *Config, v string) error { c.Run.Currency = v; return nil }},
	{Flag: "target", Usage: "where the operations go: mongodb (the server at --uri) or noop (no server: the engine, generators, recorder and sinks alone, to see mongoload's own ceiling for this workload)", Set: func(c *Config, v string) error { c.Run.Target = v; return nil }},
	{Flag: "quiet", Bool: true, Usage: "no per-interval lines", Set: boolSetter(func(c *Config) *bool { return &c.Run.Quiet })},
	{Flag: "hdr-log", Usage: "write each interval's latency histograms per operation to this HdrHistogram log (.hlog)", Set: func(c *Config, v string) error { c.Run.HdrLog = v; return nil }},
	{Flag: "prometheus", Usage: "serve /metrics for Prometheus on this address during the run (a bare port listens on loopback)", Set: func(c *Config, v string) error { c.Run.Prometheus = v; return nil }},
	{Flag: "server-telemetry", Bool: true, Usage: "sample serverStatus every interval into the results and cross-check the server's counters (default true)", Set: func(c *Config, v string) error {
		b, err := parseBool(v)
		c.Run.ServerTelemetry = &b
		return err
	}},
	{Flag: "server-stats", Bool: true, Usage: "print a line of server statistics per interval on stderr", Set: boolSetter(func(c *Config) *bool { return &c.Run.ServerStats })},
	{Flag: "dashboard", Usage: "serve a live web dashboard on this address, such as 127.0.0.1:8080 (a bare port or :port listens on loopback)", Set: func(c *Config, v string) error { c.Run.Dashboard = v; return nil }},
	{Flag: "dashboard-linger", Usage: "keep the dashboard up this long after the end, to read the final report (default 30s; Ctrl-C ends it)", Set: func(c *Config, v string) error {
		d, err := durationSetterValue(v)
		c.Run.DashboardLinger = &d
		return err
	}},
	{Flag: "empty-threshold", Range: &ShareRange, Usage: "flag an operation when more than this share of its reads, updates or deletes find no document, such as 50% or 0.9 (default 50%; 100% never flags)", Set: setEmptyThreshold},
	{Flag: "slow", Usage: "group operations at least this slow by shape (collection, type, filter), such as 200ms (0: off)", Set: durationSetter(func(c *Config) *Duration { return &c.Run.Slow })},
	{Flag: "memory-limit", GoEnv: "GOMEMLIMIT", Usage: "soft memory limit of mongoload itself, such as 256MiB, or off (default: sized from the workers, sessions and histograms of the run; docs/performance.md)", Set: func(c *Config, v string) error {
		if _, err := mempolicy.ParseLimit(v); err != nil {
			return err
		}
		c.Run.MemoryLimit = v
		return nil
	}},
	{Flag: "gogc", GoEnv: "GOGC", Usage: "mongoload's garbage collector target percentage, or off (default: tuned under the memory limit)", Set: func(c *Config, v string) error {
		if _, err := mempolicy.ParseGOGC(v); err != nil {
			return err
		}
		c.Run.GOGC = v
		return nil
	}},
	{Flag: "explain", Range: &ExplainRange, Usage: "after the run, explain the N slowest shapes of --slow and flag collection scans (without --slow: operations of 100ms or more of client-side latency, sending to reply, queueing and network included; not the server's slowms)", Set: intSetter(ExplainRange, func(c *Config) *int { return &c.Run.Explain })},
}

// durationSetterValue parses a duration that cannot be negative.
func durationSetterValue(v string) (Duration, error) {
	var d Duration
	err := durationSetter(func(*Config) *Duration { return &d })(nil, v)
	return d, err
}

// setFaults adds fault schedule entries, separated by ";", after the
// workload's own.
func setFaults(c *Config, v string) error {
	for _, f := range strings.Split(v, ";") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		if _, err := ParseFault(f); err != nil {
			return err
		}
		c.Run.Faults = append(c.Run.Faults, f)
	}
	return nil
}

// setSeed sets seed counts from the environment or a flag. Set there, a
// count is more specific than the workload file, so "N" replaces the run's
// count and every collection's own (flags > environment > file >
// defaults): --seed 5000 seeds 5,000 documents everywhere. "NAME=N,..."
// sets the named collections only (name or database.name), leaving the
// others as the file says. --seed-scale multiplies the result either way.
func setSeed(c *Config, v string) error {
	if !strings.Contains(v, "=") {
		var n int64
		if err := int64Setter(CountRange, func(*Config) *int64 { return &n })(c, v); err != nil {
			return fmt.Errorf("%w (or NAME=N,... for some collections only)", err)
		}
		c.Run.Seed = n
		for i := range c.Collections {
			c.Collections[i].Seed = 0
		}
		return nil
	}
	var names []string
	for i := range c.Collections {
		names = append(names, c.Collections[i].Name)
	}
	for _, part := range SplitList(v) {
		name, count, _ := strings.Cut(part, "=")
		var n int64
		if err := int64Setter(CountRange, func(*Config) *int64 { return &n })(c, count); err != nil || n < 1 {
			return fmt.Errorf("%q: %q is not a number of documents (1 or more; leave a collection out to keep its own count)", part, count)
		}
		found := false
		for i := range c.Collections {
			if cc := &c.Collections[i]; cc.Name == name || cc.Namespace() == name {
				cc.Seed, found = n, true
			}
		}
		if !found {
			return fmt.Errorf("%q: the workload has no collection %q (it has %s)%s", part, name, strings.Join(names, ", "), DidYouMean(name, names))
		}
	}
	return nil
}

func setWriteConcern(c *Config, v string) error {
	if c.Connection.WriteConcern == nil {
		c.Connection.WriteConcern = &WriteConcern{}
	}
	c.Connection.WriteConcern.W = v
	return nil
}

// SplitList splits a comma-separated list, blanks trimmed, empty items left out.
func SplitList(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func parseBool(v string) (bool, error) {
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%q is not true or false", v)
	}
	return b, nil
}

func boolSetter(field func(*Config) *bool) func(*Config, string) error {
	return func(c *Config, v string) error {
		b, err := parseBool(v)
		*field(c) = b
		return err
	}
}

// The numeric settings parse through Range.Parse (number.go), against
// the ranges Validate checks the file's values with: one rule for both.

func floatSetter(r Range, field func(*Config) *float64) func(*Config, string) error {
	return func(c *Config, v string) error {
		f, err := r.Parse(v)
		if err != nil {
			return err
		}
		*field(c) = f
		return nil
	}
}

// whole parses v as a whole number in r (every integer setting's ranges
// lie well inside an int and a float64's exact integers).
func whole(r Range, v string) (float64, error) {
	r.Whole = true
	return r.Parse(v)
}

func intSetter(r Range, field func(*Config) *int) func(*Config, string) error {
	return func(c *Config, v string) error {
		f, err := whole(r, v)
		if err != nil {
			return err
		}
		*field(c) = int(f)
		return nil
	}
}

func int64Setter(r Range, field func(*Config) *int64) func(*Config, string) error {
	return func(c *Config, v string) error {
		f, err := whole(r, v)
		if err != nil {
			return err
		}
		*field(c) = int64(f)
		return nil
	}
}

func uintSetter(r Range, field func(*Config) *uint64) func(*Config, string) error {
	return func(c *Config, v string) error {
		f, err := whole(r, v)
		if err != nil {
			return err
		}
		*field(c) = uint64(f)
		return nil
	}
}

// seedSetter reads a random seed: an identifier, not a quantity, so every
// 64-bit value is one (and none is a float).
func seedSetter(field func(*Config) *uint64) func(*Config, string) error {
	return func(c *Config, v string) error {
		n, err := strconv.ParseUint(strings.ReplaceAll(v, "_", ""), 10, 64)
		if errors.Is(err, strconv.ErrRange) {
			return fmt.Errorf("%q is out of range: a seed is at most %d", v, uint64(math.MaxUint64))
		}
		if err != nil {
			return fmt.Errorf("%q is not a seed: give a whole number from 0 to %d", v, uint64(math.MaxUint64))
		}
		*field(c) = n
		return nil
	}
}

func durationSetter(field func(*Config) *Duration) func(*Config, string) error {
	return func(c *Config, v string) error {
		d, err := ParseDuration(v)
		if err != nil {
			return err
		}
		if d < 0 {
			return fmt.Errorf("%q: a duration cannot be negative", v)
		}
		*field(c) = d
		return nil
	}
}

// setEmptyThreshold reads a share as a percentage ("50%") or a fraction
// ("0.5"), from 0 (exclusive) to 100%.
func setEmptyThreshold(c *Config, v string) error {
	f, err := ShareRange.ParseShare(v)
	if err != nil {
		return err
	}
	c.Run.EmptyThreshold = f
	return nil
}
