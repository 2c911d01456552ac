package results

import (
	"encoding/json"
	"fmt"
	"strings"
)

// SweepSchema identifies this version of the sweep file format
// (docs/sweep.md). The rules of Schema apply: fields may be added within a
// version; removing one or changing its meaning makes a new version.
const SweepSchema = "mongoload.sweep/v1"

// Sweep is one sweep's file: every step's full result, measured one after
// the other on the same prepared data, and the analysis of the steps.
type Sweep struct {
	FileHead
	// Load says which load parameter the sweep stepped and to which levels.
	Load SweepLoad `json:"load"`
	StepSpan
	Steps []SweepStep `json:"steps"`
	// Analysis is the verdict table; nil until analysed.
	Analysis *SweepAnalysis `json:"analysis,omitempty"`
	// Calibration is set by --target-server-cpu: the level at which the
	// server's CPU sat at the target.
	Calibration *Calibration `json:"calibration,omitempty"`
	// USL is the Universal Scalability Law fitted to a concurrency sweep's
	// complete steps; nil for other sweeps and too few levels.
	USL *USL `json:"usl,omitempty"`
	// FindMax is the rate search this sweep shows (FindMax.Sweep), nil for
	// a sweep; never written.
	FindMax *FindMax `json:"-"`
	// Reliable, ReliableWhy and Reliability: as a findmax file's, over the
	// sweep's steps (nil in files written before it was assessed).
	Reliable    *bool        `json:"reliable,omitempty"`
	ReliableWhy string       `json:"reliableWhy,omitempty"`
	Reliability *Reliability `json:"reliability,omitempty"`
}

// Failed is a sweep's outcome when a step could not run at all.
const Failed Outcome = "failed"

// SweepLoad is the stepped load parameter.
type SweepLoad struct {
	Type string `json:"type"` // Closed, Open or Sessions
	// Parameter is "concurrency" (closed), "rate" (open) or "sessions".
	Parameter string    `json:"parameter"`
	Levels    []float64 `json:"levels"` // as asked, in order
}

// Unit names a level of the parameter for people: workers, ops/s, sessions.
func (l SweepLoad) Unit() string {
	switch l.Parameter {
	case "rate":
		return "ops/s"
	case "sessions":
		return "sessions"
	}
	return "workers"
}

// ColumnName is the level column's heading.
func (l SweepLoad) ColumnName() string {
	switch l.Parameter {
	case "rate":
		return "rate"
	case "sessions":
		return "sessions"
	}
	return "workers"
}

// Describe formats a level with its unit: "32 workers", "4,000 ops/s".
func (l SweepLoad) Describe(level float64) string {
	u := l.Unit()
	if level == 1 && u != "ops/s" {
		u = strings.TrimSuffix(u, "s") // 1 worker, 1 session
	}
	return Target(level) + " " + u
}

// SweepStep is one step: its level and its complete result. Complete is
// false for a step cut short by an interruption: it is kept in the file but
// not judged.
type SweepStep struct {
	Level    float64 `json:"level"`
	Complete bool    `json:"complete"`
	Result   *Result `json:"result"`
}

// SweepAnalysis is what analysis.AnalyseSweep found: figures and a verdict
// per step, the named points and what limited the run.
type SweepAnalysis struct {
	Rules SweepThresholds `json:"rules"`
	Steps []StepFigures   `json:"steps"`
	// SweetSpot, Saturation and Plateau ("Max throughput" verdict) are step
	// indexes into Steps, nil when the sweep did not reach them; Best is the
	// step of the highest throughput.
	SweetSpot  *int `json:"sweetSpot,omitempty"`
	Saturation *int `json:"saturation,omitempty"`
	Plateau    *int `json:"plateau,omitempty"`
	Best       *int `json:"best,omitempty"`
	// Limit is what limited the run, Kind one of "client", "client-pool"
	// (levels above the client's in-flight limit), "client-scheduler" (the
	// load model's one scheduling goroutine fell behind), "server",
	// "server-cpu", "server-cache", "server-tickets", "server-connections",
	// "none" (no saturation) or "unknown" (too few steps).
	Limit Limit `json:"limit"`
	// Summary is the analysis in a few sentences for people.
	Summary []string `json:"summary"`
}

// SweepThresholds are the verdict rules' thresholds the analysis used
// (docs/sweep.md).
type SweepThresholds struct {
	LinearGain    float64 `json:"linearGain"`
	KneeGain      float64 `json:"kneeGain"`
	LatencyKnee   float64 `json:"latencyKnee"`
	Plateau       float64 `json:"plateau"`
	DegradedDrop  float64 `json:"degradedDrop"`
	Oversaturated float64 `json:"oversaturated"`
	// Latency is the latency the rules use: avg, p50, p95 or p99.
	Latency string `json:"latency"`
	// ClientCPU is the share of the CPU the client may use above which the
	// load generator itself is named as the limit.
	ClientCPU float64 `json:"clientCpu"`
}

// Limit is what limited the run, in one sentence.
type Limit struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// StepFigures are one step's figures as the tables show them. Latencies
// are in ms; class figures are nil when the workload has no operation of
// that class.
type StepFigures struct {
	Level      float64 `json:"level"`
	Complete   bool    `json:"complete"`
	Throughput float64 `json:"throughput"`
	Operations int64   `json:"operations"`
	Errors     int64   `json:"errors"`
	Latency    Latency `json:"latency"`
	Read       *Class  `json:"read,omitempty"`
	Write      *Class  `json:"write,omitempty"`
	// ClientCPU is the share of the CPU it may use (ClientCPUAvailable) mongoload used
	// (0..1), CPUPerOpMicros its CPU per operation; absent in results that
	// do not say.
	ClientCPU   *float64 `json:"clientCpu,omitempty"`
	ClientCores int      `json:"clientCores,omitempty"`
	// SchedulerBusy is the busiest interval's share of time the load
	// model's one scheduling goroutine was working (ClientUsage).
	SchedulerBusy float64 `json:"schedulerBusy,omitempty"`
	// ClientCPUAvailable is the CPU the client process could use (cores,
	// GOMAXPROCS and cgroup quota), which ClientCPU is a share of.
	ClientCPUAvailable float64  `json:"clientCpuAvailable,omitempty"`
	CPUPerOpMicros     *float64 `json:"cpuPerOpMicros,omitempty"`
	// Dropped counts open-loop operations dropped for want of an in-flight
	// place: the server could not keep the rate.
	Dropped int64 `json:"dropped,omitempty"`
	// InFlightLimit is the most operations the client had in flight at
	// once (closed loop: its connection pool or --max-in-flight), and
	// AboveInFlightLimit flags a closed-loop step with more workers than
	// that: the extra workers only queued inside mongoload, so the server
	// saw no more load than at the limit.
	InFlightLimit      int            `json:"inFlightLimit,omitempty"`
	AboveInFlightLimit bool           `json:"aboveInFlightLimit,omitempty"`
	Server             *ServerFigures `json:"server,omitempty"`
	// Gain is the throughput gain over the previous step as a share of the
	// proportional gain (1 = linear); nil for the first step.
	Gain *float64 `json:"gain,omitempty"`
	// Verdict is one of the sweep verdicts, "" for a step not judged.
	Verdict string `json:"verdict"`
}

// Class is the figures of one class of operations (reads or writes).
type Class struct {
	Operations int64   `json:"operations"`
	Throughput float64 `json:"throughput"`
	Latency    Latency `json:"latency"`
}

// ServerFigures summarize a step's server telemetry: the worst value of
// any sample (highest use, fewest tickets), or the average where said.
// A figure the server did not report is nil.
type ServerFigures struct {
	// CPUCores is the server process's CPU seconds per second (cores busy),
	// averaged over the step.
	CPUCores *float64 `json:"cpuCores,omitempty"`
	// CacheUsed and CacheDirty are shares of the WiredTiger cache (0..1).
	CacheUsed  *float64 `json:"cacheUsed,omitempty"`
	CacheDirty *float64 `json:"cacheDirty,omitempty"`
	// PagesReadPerSec are pages read into the cache per second (misses).
	PagesReadPerSec *float64 `json:"pagesReadPerSec,omitempty"`
	// Connections is the share of the server's connections in use (0..1).
	Connections *float64 `json:"connections,omitempty"`
	// TicketsMin is the fewest read or write tickets available.
	TicketsMin *int64 `json:"ticketsMin,omitempty"`
	// LagSeconds is the largest replication lag of a secondary.
	LagSeconds *float64 `json:"lagSeconds,omitempty"`
}

// WriteSweep writes sw to path as indented JSON with SweepSchema,
// atomically like WriteJSON.
func WriteSweep(path string, sw *Sweep) error {
	out := *sw
	out.Schema = SweepSchema
	return writeIndented("sweep", path, &out)
}

// schemaOf reads the schema field of a JSON file.
func schemaOf(path string, b []byte) (string, error) {
	var head struct {
		Schema *string `json:"schema"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return "", malformedIf(err, fmt.Errorf("read %q: not a mongoload JSON file: %s", path, jsonProblem(b, err)))
	}
	if head.Schema == nil {
		return "", fmt.Errorf("read %q: no \"schema\" field: not a mongoload results or sweep file", path)
	}
	return *head.Schema, nil
}
