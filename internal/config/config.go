// Package config holds mongoload's one configuration struct: how it is read
// from a workload file (YAML or JSON, strictly: unknown keys are errors),
// layered with environment variables and flags, and validated.
//
// Precedence, lowest first: built-in defaults < workload file < MONGOLOAD_*
// environment variables < command-line flags.
package config

import "time"

// Config is the whole effective configuration of one mongoload run.
type Config struct {
	// Source names where the workload came from: a file path or "builtin:NAME".
	Source string `yaml:"-" json:"source"`

	Name        string       `yaml:"name,omitempty" json:"name"`
	Description string       `yaml:"description,omitempty" json:"description,omitempty"`
	Connection  Connection   `yaml:"connection,omitempty" json:"connection"`
	Collections []Collection `yaml:"collections,omitempty" json:"collections"`
	Operations  []Operation  `yaml:"operations,omitempty" json:"operations"`
	Run         Run          `yaml:"run,omitempty" json:"run"`
	// Watchers are change-stream consumers the run holds open beside the
	// operations (watch.go); they are measured apart and are no operations.
	Watchers []Watcher `yaml:"watchers,omitempty" json:"watchers,omitempty"`

	// CapturedFrom is the identity of the deployment a captured workload
	// was read from (hashes of its replica set name and hosts, written by
	// capture): run, load, replay and ab refuse to write to that
	// deployment unless Run.WriteToSource (internal/run.GuardSource).
	CapturedFrom []string `yaml:"capturedFrom,omitempty" json:"-"`

	// setBy: which flag or environment variable set a field (provenance.go).
	setBy map[string]string
}

// Connection says how to reach and talk to the server.
type Connection struct {
	URI            string            `yaml:"uri,omitempty" json:"uri"`
	AppName        string            `yaml:"appName,omitempty" json:"appName,omitempty"`
	Username       string            `yaml:"username,omitempty" json:"username,omitempty"`
	Password       string            `yaml:"password,omitempty" json:"password,omitempty"`
	AuthSource     string            `yaml:"authSource,omitempty" json:"authSource,omitempty"`
	ReadPreference string            `yaml:"readPreference,omitempty" json:"readPreference,omitempty"`
	ReadConcern    string            `yaml:"readConcern,omitempty" json:"readConcern,omitempty"`
	WriteConcern   *WriteConcern     `yaml:"writeConcern,omitempty" json:"writeConcern,omitempty"`
	MaxPoolSize    uint64            `yaml:"maxPoolSize,omitempty" json:"maxPoolSize,omitempty"`
	MinPoolSize    uint64            `yaml:"minPoolSize,omitempty" json:"minPoolSize,omitempty"`
	Compressors    []string          `yaml:"compressors,omitempty" json:"compressors,omitempty"`
	Timeouts       Timeouts          `yaml:"timeouts,omitempty" json:"timeouts"`
	Options        map[string]string `yaml:"options,omitempty" json:"options,omitempty"`
	// DriverPath is how operations reach the driver: "api" (its public
	// API) or "fast" (its lower layer, for the kinds it knows); empty is
	// DefaultDriverPath.
	DriverPath string `yaml:"driverPath,omitempty" json:"driverPath,omitempty"`
}

// The driver paths (Connection.DriverPath).
const (
	DriverPathAPI  = "api"
	DriverPathFast = "fast"
	// DefaultDriverPath is the path measured cheaper per operation at the
	// same throughput (docs/performance.md, "The driver's lower layer").
	DefaultDriverPath = DriverPathFast
)

// Path is the driver path in effect.
func (cn *Connection) Path() string {
	if cn.DriverPath == "" {
		return DefaultDriverPath
	}
	return cn.DriverPath
}

// DefaultMaxPoolSize is the connection pool the driver opens when
// maxPoolSize is not set: the MongoDB drivers' default.
const DefaultMaxPoolSize = 100

// PoolSize is the connection pool size the driver uses: maxPoolSize, else
// the driver's default.
func (cn *Connection) PoolSize() int {
	if cn.MaxPoolSize > 0 {
		return int(cn.MaxPoolSize)
	}
	return DefaultMaxPoolSize
}

// WriteConcern is w (a number or a tag such as "majority"), j, and a
// client-side deadline for writes (ClientTimeout).
type WriteConcern struct {
	W string `yaml:"w,omitempty" json:"w,omitempty"`
	J *bool  `yaml:"j,omitempty" json:"j,omitempty"`
	// ClientTimeout is a deadline the client puts on each write that uses
	// this write concern: past it, mongoload stops waiting and counts a
	// timeout error. It is not the server's write-concern wtimeout (the Go
	// driver v2 cannot send one): the server is not told, the write may
	// still be applied and replicated, and no writeConcernError comes back.
	// docs/workload.md#write-concern says more.
	ClientTimeout Duration `yaml:"clientTimeout,omitempty" json:"clientTimeout,omitempty"`
	// WTimeout is ClientTimeout's old name, still read (with a deprecation
	// warning), because it was mistaken for the server's wtimeout.
	WTimeout Duration `yaml:"wtimeout,omitempty" json:"wtimeout,omitempty"`
}

// Deadline is the client-side deadline of writes, 0 for none.
func (wc *WriteConcern) Deadline() time.Duration {
	if wc == nil {
		return 0
	}
	if wc.ClientTimeout > 0 {
		return wc.ClientTimeout.D()
	}
	return wc.WTimeout.D()
}

// Timeouts bound how long connecting and each operation may take.
type Timeouts struct {
	Connect         Duration `yaml:"connect,omitempty" json:"connect,omitempty"`
	ServerSelection Duration `yaml:"serverSelection,omitempty" json:"serverSelection,omitempty"`
	// Operation is the client-side timeout of one operation (CSOT timeoutMS); 0 means none.
	Operation Duration `yaml:"operation,omitempty" json:"operation,omitempty"`
}

// Collection is one collection the workload uses, with the shape of its documents.
type Collection struct {
	Database string  `yaml:"database,omitempty" json:"database"`
	Name     string  `yaml:"name,omitempty" json:"name"`
	Template Value   `yaml:"template,omitempty" json:"-"`
	Indexes  []Index `yaml:"indexes,omitempty" json:"indexes,omitempty"`
	// Seed is how many documents this collection holds before a run; it
	// overrides run.seed (which applies to every collection without one).
	Seed     int64 `yaml:"seed,omitempty" json:"seed,omitempty"`
	ShardKey Value `yaml:"shardKey,omitempty" json:"-"`
	// Timeseries makes it a time-series collection (timeseries.go).
	Timeseries *Timeseries `yaml:"timeseries,omitempty" json:"timeseries,omitempty"`
	Line       int         `yaml:"-" json:"-"`
}

// Namespace is "database.collection".
func (c Collection) Namespace() string { return c.Database + "." + c.Name }

// Index is one index to create on a collection.
type Index struct {
	Name   string   `yaml:"name,omitempty" json:"name,omitempty"`
	Keys   Value    `yaml:"keys,omitempty" json:"-"`
	Unique bool     `yaml:"unique,omitempty" json:"unique,omitempty"`
	Sparse bool     `yaml:"sparse,omitempty" json:"sparse,omitempty"`
	TTL    Duration `yaml:"ttl,omitempty" json:"ttl,omitempty"`
	// Partial is the index's partialFilterExpression: only documents it
	// matches are indexed (a captured index keeps its own).
	Partial Value `yaml:"partialFilterExpression,omitempty" json:"-"`
	Line    int   `yaml:"-" json:"-"`
}

// Operation is one entry of the operation mix.
type Operation struct {
	Name       string `yaml:"name,omitempty" json:"name"`
	Type       string `yaml:"type,omitempty" json:"type"`
	Collection string `yaml:"collection,omitempty" json:"collection,omitempty"`
	// Weight is this operation's share of the mix, relative to the sum of all weights.
	Weight     float64 `yaml:"weight,omitempty" json:"weight"`
	Filter     Value   `yaml:"filter,omitempty" json:"-"`
	Update     Value   `yaml:"update,omitempty" json:"-"`
	Document   Value   `yaml:"document,omitempty" json:"-"`
	Pipeline   Value   `yaml:"pipeline,omitempty" json:"-"`
	Projection Value   `yaml:"projection,omitempty" json:"-"`
	Sort       Value   `yaml:"sort,omitempty" json:"-"`
	Limit      Limit   `yaml:"limit,omitempty" json:"limit,omitzero"`
	// BatchSize is the number of documents of one insertMany.
	BatchSize      int           `yaml:"batchSize,omitempty" json:"batchSize,omitempty"`
	Upsert         bool          `yaml:"upsert,omitempty" json:"upsert,omitempty"`
	ReadPreference string        `yaml:"readPreference,omitempty" json:"readPreference,omitempty"`
	WriteConcern   *WriteConcern `yaml:"writeConcern,omitempty" json:"writeConcern,omitempty"`

	// A step of a transaction may abort it: abortIf: noMatch ends the
	// transaction (rolled back, counted as a business outcome named
	// abortReason, not an error) when the step matched no document.
	AbortIf     string `yaml:"abortIf,omitempty" json:"abortIf,omitempty"`
	AbortReason string `yaml:"abortReason,omitempty" json:"abortReason,omitempty"`

	// Transactions (type: transaction): values drawn once per transaction
	// (used in the steps as {$var: name}), the steps in order, and how the
	// transaction runs.
	Let           Value       `yaml:"let,omitempty" json:"-"`
	Steps         []Operation `yaml:"steps,omitempty" json:"steps,omitempty"`
	ReadConcern   string      `yaml:"readConcern,omitempty" json:"readConcern,omitempty"`
	MaxCommitTime Duration    `yaml:"maxCommitTime,omitempty" json:"maxCommitTime,omitempty"`
	// Styles: perOperation (one command per step) and/or batched (the
	// steps' writes as one client bulkWrite, MongoDB 8.0+). Each style runs
	// as its own operation of the mix, so one report compares them.
	Styles []string `yaml:"styles,omitempty" json:"styles,omitempty"`

	Line int `yaml:"-" json:"-"`
}

// The targets of a run (Run.Target).
const (
	TargetMongoDB = "mongodb" // the server at the connection URI (also "")
	TargetNoop    = "noop"    // no server: every operation is answered at once
)

// Run holds the phases and the load model of a run.
type Run struct {
	Concurrency int      `yaml:"concurrency,omitempty" json:"concurrency"`
	Duration    Duration `yaml:"duration,omitempty" json:"duration,omitempty"`
	Operations  int64    `yaml:"operations,omitempty" json:"operations,omitempty"`
	Warmup      Duration `yaml:"warmup,omitempty" json:"warmup,omitempty"`
	// Grace is how long operations in flight when the duration ends may
	// take to finish before they are abandoned (0: 5s).
	Grace    Duration `yaml:"grace,omitempty" json:"grace,omitempty"`
	Interval Duration `yaml:"interval,omitempty" json:"interval"`
	// Seed is the number of documents inserted into each collection before the run.
	Seed int64 `yaml:"seed,omitempty" json:"seed,omitempty"`
	// SeedScale multiplies every seed count (collection seeds included):
	// 0.01 runs a preset at a hundredth of its data, for a quick try.
	SeedScale     float64 `yaml:"seedScale,omitempty" json:"seedScale,omitempty"`
	SeedBatchSize int     `yaml:"seedBatchSize,omitempty" json:"seedBatchSize,omitempty"`
	SeedWorkers   int     `yaml:"seedWorkers,omitempty" json:"seedWorkers,omitempty"`
	Setup         *bool   `yaml:"setup,omitempty" json:"setup,omitempty"`
	Drop          bool    `yaml:"drop,omitempty" json:"drop,omitempty"`
	// WriteToSource lets a captured workload write to the deployment it
	// was captured from. Only a flag or the environment sets it, never the
	// file: the file is what travels to the wrong deployment.
	WriteToSource bool `yaml:"-" json:"-"`
	AllowExisting bool `yaml:"allowExisting,omitempty" json:"allowExisting,omitempty"`
	// CreateIndexes lets setup build the workload's missing indexes on
	// collections that existed before the run (never otherwise: those
	// indexes are the user's). Only a flag or the environment sets it, as
	// WriteToSource: a long, blocking build on production is asked for
	// on the command that does it.
	CreateIndexes bool `yaml:"-" json:"-"`
	// ReplayDDL and ReplayAdmin let a replay send the trace's DDL
	// (collection and index commands, still under the ownership rule) and
	// its server administration (and commands mongoload does not know).
	// Only a flag or the environment sets them, as WriteToSource.
	ReplayDDL   bool `yaml:"-" json:"-"`
	ReplayAdmin bool `yaml:"-" json:"-"`
	// RandomSeed seeds the data (seeding, mongoload load) and the value
	// pools; OperationSeed seeds the operations (keys, values, the mix).
	// OperationSeed 0 means a fresh one per run: a fixed one would have
	// each run rewrite the values the last one wrote, which the server
	// skips as no-op writes (see PickOperationSeed).
	RandomSeed    uint64 `yaml:"randomSeed,omitempty" json:"randomSeed,omitempty"`
	OperationSeed uint64 `yaml:"operationSeed,omitempty" json:"operationSeed,omitempty"`
	Out           string `yaml:"out,omitempty" json:"out,omitempty"`
	Label         string `yaml:"label,omitempty" json:"label,omitempty"`
	// History is the store the result is appended to after the run: a
	// directory or a mongodb:// URI (internal/history, docs/history.md).
	History string `yaml:"history,omitempty" json:"history,omitempty"`
	// MonthlyCost and Currency: what the system under test costs per
	// month, for throughput per cost in comparisons (docs/sweep.md).
	MonthlyCost float64 `yaml:"monthlyCost,omitempty" json:"monthlyCost,omitempty"`
	Currency    string  `yaml:"currency,omitempty" json:"currency,omitempty"`
	Quiet       bool    `yaml:"quiet,omitempty" json:"quiet,omitempty"`
	// Target is what the operations go to: the server (TargetMongoDB, the
	// default) or nothing (TargetNoop), to see the client's own ceiling.
	Target string `yaml:"target,omitempty" json:"target,omitempty"`

	// Load models: closed loop (Concurrency workers) unless Rate (open loop
	// at a target rate) or Sessions (think-time sessions) is set.
	Rate float64 `yaml:"rate,omitempty" json:"rate,omitempty"`
	// RateScale multiplies the rate (the file's, such as a captured one, or
	// --rate) and the open-loop stages' targets: 3 runs at three times the
	// captured traffic. Applied once by ApplyRateScale after layering.
	RateScale   float64  `yaml:"rateScale,omitempty" json:"rateScale,omitempty"`
	Arrival     string   `yaml:"arrival,omitempty" json:"arrival,omitempty"` // fixed (default) or poisson
	MaxInFlight int      `yaml:"maxInFlight,omitempty" json:"maxInFlight,omitempty"`
	Sessions    int      `yaml:"sessions,omitempty" json:"sessions,omitempty"`
	ThinkTime   Duration `yaml:"thinkTime,omitempty" json:"thinkTime,omitempty"`
	ThinkDist   string   `yaml:"thinkDistribution,omitempty" json:"thinkDistribution,omitempty"` // fixed (default) or exponential
	// Faults is the fault schedule, such as "at 30s: stepdown" (ParseFault).
	Faults []string `yaml:"faults,omitempty" json:"faults,omitempty"`
	// Stages change the rate (open loop) or the workers (closed loop) over time.
	Stages Stages `yaml:"stages,omitempty" json:"stages,omitempty"`
	// RepeatStages plays the stages again once they end, for as long as the
	// run lasts (a captured per-second rate curve, docs/capture.md).
	RepeatStages bool `yaml:"repeatStages,omitempty" json:"repeatStages,omitempty"`
	// Partition is "i/N": this process's share of the keys, rate and sessions.
	Partition string `yaml:"partition,omitempty" json:"partition,omitempty"`
	// StartAt is a wall-clock time (RFC 3339) at which the measured run starts.
	StartAt string `yaml:"startAt,omitempty" json:"startAt,omitempty"`

	// SLO is the service-level objectives the run is judged by, such as
	// "p99<=20ms,throughput>=5000,errors<=0.1%" (see docs/sla.md).
	SLO string `yaml:"slo,omitempty" json:"slo,omitempty"`
	// Repeat runs the measured phase this many times (a battery), with
	// Cooldown between runs; PassQuorum runs must meet the SLO (default all).
	Repeat     int      `yaml:"repeat,omitempty" json:"repeat,omitempty"`
	Cooldown   Duration `yaml:"cooldown,omitempty" json:"cooldown,omitempty"`
	PassQuorum int      `yaml:"passQuorum,omitempty" json:"passQuorum,omitempty"`

	// Observers (docs/telemetry.md): an HdrHistogram interval log, a
	// Prometheus endpoint, and server telemetry from serverStatus.
	HdrLog          string `yaml:"hdrLog,omitempty" json:"hdrLog,omitempty"`
	Prometheus      string `yaml:"prometheus,omitempty" json:"prometheus,omitempty"`           // address; a bare port listens on loopback
	ServerTelemetry *bool  `yaml:"serverTelemetry,omitempty" json:"serverTelemetry,omitempty"` // default true
	ServerStats     bool   `yaml:"serverStats,omitempty" json:"serverStats,omitempty"`         // print a server line per interval

	// The operator's view (docs/dashboard.md, docs/insights.md): a live web
	// dashboard on Dashboard (a bare port listens on loopback), kept up for
	// DashboardLinger after the end (nil: 30s); operations slower than Slow
	// grouped by shape, and the Explain slowest shapes explained.
	Dashboard       string    `yaml:"dashboard,omitempty" json:"dashboard,omitempty"`
	DashboardLinger *Duration `yaml:"dashboardLinger,omitempty" json:"dashboardLinger,omitempty"`
	Slow            Duration  `yaml:"slow,omitempty" json:"slow,omitempty"`
	Explain         int       `yaml:"explain,omitempty" json:"explain,omitempty"`
	// EmptyThreshold flags an operation whose share of empty results (reads
	// returning nothing, updates matching nothing, deletes deleting
	// nothing) is above it, 0..1 (0: the default, 50%).
	EmptyThreshold float64 `yaml:"emptyThreshold,omitempty" json:"emptyThreshold,omitempty"`

	// MemoryLimit and GOGC override mongoload's memory policy (the soft
	// limit sized from the run, GOGC tuned under it: internal/mempolicy),
	// as GOMEMLIMIT and GOGC read them ("256MiB", "200", "off"); "" sizes.
	MemoryLimit string `yaml:"memoryLimit,omitempty" json:"memoryLimit,omitempty"`
	GOGC        string `yaml:"gogc,omitempty" json:"gogc,omitempty"`
}
