package results

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/mongoload/mongoload/internal/metrics"
)

// Schema identifies this version of the results file format. Fields may be
// added within a version (readers ignore fields they do not know); removing
// or changing the meaning of one makes a new version.
const Schema = "mongoload.results/v1"

// Result is one run's results file, read later by compare, merge and the
// HTML report. docs/results-schema.md documents every field. Latencies are
// in milliseconds, durations in seconds, times RFC 3339 with nanoseconds.
type Result struct {
	Schema   string          `json:"schema"`
	Tool     Tool            `json:"tool"`
	Label    string          `json:"label,omitempty"`
	Workload Workload        `json:"workload"`
	Config   json.RawMessage `json:"config,omitempty"` // effective configuration, passwords redacted
	// ConfigLine is the effective configuration in one line, as the console
	// shows it.
	ConfigLine string    `json:"configLine,omitempty"`
	Load       LoadModel `json:"load"`

	// StartedAt and EndedAt bound the measured phase; the warm-up ran
	// before StartedAt. If nothing was measured they bound the whole run.
	StartedAt       time.Time `json:"startedAt"`
	EndedAt         time.Time `json:"endedAt"`
	DurationSeconds float64   `json:"durationSeconds"` // measured phase
	WarmupSeconds   float64   `json:"warmupSeconds"`

	Outcome Outcome `json:"outcome"`
	Reason  string  `json:"reason,omitempty"` // why the run ended, for people

	Totals     Totals            `json:"totals"`
	Operations []Operation       `json:"operations"`
	Intervals  []IntervalSummary `json:"intervals"`
	Notes      []string          `json:"notes,omitempty"`
	// Schedule is set for open-loop runs.
	Schedule *Schedule `json:"schedule,omitempty"`
	// Client is what mongoload itself used during the measured phase.
	Client *ClientUsage `json:"client,omitempty"`
	// Cost is what the system under test costs (--monthly-cost), for
	// throughput per cost in comparisons; see CostOf.
	Cost *Cost `json:"cost,omitempty"`
	// Server is the server's own telemetry during the measured phase.
	Server *Server `json:"server,omitempty"`
	// Merged is set on a result that mongoload merge made from several files.
	Merged *Merged `json:"merged,omitempty"`
	// Context is the deployment the run met (version, topology, host),
	// read when it began; Collections are the workload's collections'
	// statistics before and after; Slow groups the operations slower than
	// --slow by shape (context.go, slow.go).
	Context     *ServerContext    `json:"context,omitempty"`
	Collections []CollectionStats `json:"collections,omitempty"`
	Slow        *Slow             `json:"slow,omitempty"`
	// Faults is set when operations failed for want of a server (network,
	// timeout, not primary, ...) or were abandoned in flight: the
	// availability gaps, the recovery, the error timeline (faults.go).
	Faults *Faults `json:"faults,omitempty"`
	// Watchers are the change-stream consumers held open during the run
	// (watchers.go): no operations, so in no total, throughput or SLO of
	// the operations.
	Watchers []Watcher `json:"watchers,omitempty"`
	// Replay is set on a replay's result (replay.go).
	Replay *Replay `json:"replay,omitempty"`
	// Interference is the host's CPU that neither mongoload nor a local
	// server used during the measured phase (noise.go); absent where the
	// host's CPU cannot be read.
	Interference *Interference `json:"interference,omitempty"`
}

// Saturated is the share of the cores from which a side counts as saturated.
const Saturated = 0.9

// ClientUsage is the load generator's own consumption, so a saturated
// client is never mistaken for a saturated server.
type ClientUsage struct {
	CPUSeconds     float64 `json:"cpuSeconds"`     // user + system during the measured phase
	CPUPerOpMicros float64 `json:"cpuPerOpMicros"` // CPUSeconds per successful operation, in µs
	// Utilization is the share of AvailableCPU used, 0..1: at 1 the
	// client itself was the limit, however many cores the host has.
	Utilization float64 `json:"utilization"`
	Cores       int     `json:"cores"` // the host's CPUs this process may run on
	// AvailableCPU is the CPU this process may use, in cores: the least
	// of GOMAXPROCS and its cgroup's CPU quota (cpu.max), maybe fractional.
	AvailableCPU float64 `json:"availableCpu,omitempty"`
	// MaxRSSBytes is the peak resident memory of the whole process's
	// lifetime, seeding and loading included. MeasuredPeakRSSBytes is the
	// measured phase's own peak (exact on Linux, where the kernel's peak is
	// reset at its start: MeasuredPeakRSSExact; elsewhere the largest
	// per-interval sample), and SetupPeakRSSBytes the peak before it:
	// connecting, seeding, loading, warm-up.
	MaxRSSBytes          int64 `json:"maxRSSBytes"`
	MeasuredPeakRSSBytes int64 `json:"measuredPeakRSSBytes,omitempty"`
	MeasuredPeakRSSExact bool  `json:"measuredPeakRSSExact,omitempty"`
	SetupPeakRSSBytes    int64 `json:"setupPeakRSSBytes,omitempty"`
	// PeakUtilization is the busiest interval's share of the cores, and
	// SaturatedIntervals the intervals at 90% or more: mongoload itself was
	// then the limit (intervals[].client has each interval's).
	PeakUtilization    float64 `json:"peakUtilization,omitempty"`
	SaturatedIntervals int     `json:"saturatedIntervals,omitempty"`
	// SchedulerBusy is the busiest interval's share of time the load
	// model's one scheduling goroutine (open-loop scheduler, sessions
	// dispatcher) was working, and SchedulerLagMs the furthest the
	// open-loop scheduler fell behind its schedule: at Saturated or more
	// busy, that one goroutine was the client's limit, however idle the
	// other cores.
	SchedulerBusy  float64 `json:"schedulerBusy,omitempty"`
	SchedulerLagMs float64 `json:"schedulerLagMs,omitempty"`
	// Memory is the garbage collector's setting for the run.
	Memory *MemoryPolicy `json:"memoryPolicy,omitempty"`
	// DriverPath is how operations reached the driver: "api" (its public
	// API) or "fast" (its lower layer, for the kinds it sends; the default,
	// chosen by measurement: docs/performance.md).
	DriverPath string `json:"driverPath,omitempty"`
	// Telemetry is what mongoload asked the server besides the workload
	// (observer.go); absent with --target noop.
	Telemetry *ClientTelemetry `json:"telemetry,omitempty"`
}

// MemoryPolicy is the collector's setting a run ran under: the soft memory
// limit and GOGC, each either sized from the run (internal/mempolicy) or
// set by the user (--memory-limit, --gogc, GOMEMLIMIT, GOGC, the file).
type MemoryPolicy struct {
	LimitBytes int64  `json:"limitBytes,omitempty"` // absent when there is none
	Limit      string `json:"limit"`                // as GOMEMLIMIT reads it: "61MiB", "off"
	GOGC       string `json:"gogc"`                 // as GOGC reads it: "850", "off"
	// LimitFrom and GOGCFrom: "sized" from the run or "set" by the user.
	LimitFrom string `json:"limitFrom"`
	GOGCFrom  string `json:"gogcFrom"`
	// RaisedTo is the highest a sized limit was raised to while the run
	// went on, to keep it at twice the live heap plus the margin or more
	// (mempolicy.Follower); absent when it was never raised.
	RaisedToBytes int64  `json:"raisedToBytes,omitempty"`
	RaisedTo      string `json:"raisedTo,omitempty"`
}

// Tool names the program that wrote the file.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Workload names the workload and where it came from.
type Workload struct {
	Name   string `json:"name"`
	Source string `json:"source,omitempty"` // a file path or "builtin:NAME"
}

// The load model types.
const (
	Closed   = "closed"   // a fixed number of workers, each sending as soon as the last reply came
	Open     = "open"     // operations scheduled at a fixed rate whatever the server does
	Sessions = "sessions" // simulated users with think time between operations
)

// LoadModel says how load was applied.
type LoadModel struct {
	Type        string  `json:"type"`                  // Closed, Open or Sessions
	Concurrency int     `json:"concurrency,omitempty"` // workers (closed) or the in-flight limit (open)
	Rate        float64 `json:"rate,omitempty"`        // target operations per second (open)
	Arrival     string  `json:"arrival,omitempty"`     // open loop: fixed or poisson
	Sessions    int     `json:"sessions,omitempty"`
	ThinkTime   string  `json:"thinkTime,omitempty"` // as configured, such as "2s" or "exp(2s)"
	Stages      string  `json:"stages,omitempty"`    // a ramp, as DURATION:TARGET,...
	Partition   string  `json:"partition,omitempty"` // i/N when this process ran a share
	// MaxInFlight is the most operations in flight at once: the in-flight
	// limit of an open loop, the connection pool of the others.
	MaxInFlight int `json:"maxInFlight,omitempty"`
	// LatencyFrom says where every latency of the run starts (each ends at
	// the reply): "send", "ready", "due" or "scheduled" (metrics.FromSend
	// ...); ServiceTimeFrom is "send" where service times were recorded.
	// report.ClockText says it in words. Files written before these fields
	// existed are read by their load type (LatencyClock).
	LatencyFrom     string `json:"latencyFrom,omitempty"`
	ServiceTimeFrom string `json:"serviceTimeFrom,omitempty"`
}

// LatencyClock is where l's latencies start: LatencyFrom, or for an older
// file what its load type measured.
func (l LoadModel) LatencyClock() string {
	switch {
	case l.LatencyFrom != "":
		return l.LatencyFrom
	case l.Type == Open:
		return metrics.FromScheduled
	case l.Type == Sessions:
		return metrics.FromDue
	}
	return metrics.FromSend
}

// Schedule is how well an open-loop run kept its schedule: operations the
// schedule called for, those dropped because every in-flight place was
// taken, and those sent more than 10ms late (their lateness is part of their
// measured latency).
type Schedule struct {
	TargetRate   float64 `json:"targetRate"`   // ops/s the schedule called for over the measured phase
	AchievedRate float64 `json:"achievedRate"` // operations completed (successes and errors) per second
	Scheduled    int64   `json:"scheduled"`
	Dropped      int64   `json:"dropped"`
	Late         int64   `json:"late"`
	// DroppedShare is Dropped over Scheduled, 0..1: operations that were
	// due and never sent, so never answered; they are not in any latency
	// percentile, and a latency objective counts each as an infinite
	// latency (analysis.Check).
	DroppedShare float64 `json:"droppedShare,omitempty"`
}

// Outcome is how a run ended.
type Outcome string

// The outcomes.
const (
	Completed   Outcome = "completed"   // ran for its planned duration or operation count
	Interrupted Outcome = "interrupted" // stopped by the user or a signal
	ServerLost  Outcome = "server-lost" // the server became unreachable
	// DurationReached: the duration ended with operations in flight that
	// did not finish within the grace period; they were abandoned.
	DurationReached Outcome = "duration-reached"
)

// Totals sums every operation.
type Totals struct {
	Operations    int64            `json:"operations"` // successful operations
	Errors        int64            `json:"errors"`     // failed operations
	ErrorsByClass map[string]int64 `json:"errorsByClass,omitempty"`
	// Outcomes counts what is neither success nor error: transactions the
	// workload's own condition aborted ("aborted: insufficient funds", also
	// counted in Count), and retries ("retry: TransientTransactionError").
	Outcomes   map[string]int64 `json:"outcomes,omitempty"`
	Throughput float64          `json:"throughput"` // successful operations per second
	Overflow   int64            `json:"overflow"`
	// Docs is what the server did with documents, over every operation
	// (transaction steps excluded: their transaction's figures hold them).
	Docs *metrics.Docs `json:"docs,omitempty"`
	// Latency is over all operations' samples together.
	Latency Latency  `json:"latency"`
	Service *Latency `json:"service,omitempty"`
}

// Operation is one operation's whole-run figures.
type Operation struct {
	Name string `json:"name"`
	Type string `json:"type,omitempty"` // find, insertOne, ...
	// Parent names the transaction this operation is a step of, or the
	// read-modify-write whose read or update it is. Such a part is not an
	// operation of the mix: it is never added into totals, throughput,
	// objectives or verdicts (InMix).
	Parent        string           `json:"parent,omitempty"`
	Count         int64            `json:"count"`  // successful operations
	Errors        int64            `json:"errors"` // failed operations
	ErrorsByClass map[string]int64 `json:"errorsByClass,omitempty"`
	// Outcomes counts what is neither success nor error: transactions the
	// workload's own condition aborted ("aborted: insufficient funds", also
	// counted in Count), and retries ("retry: TransientTransactionError").
	Outcomes   map[string]int64 `json:"outcomes,omitempty"`
	Throughput float64          `json:"throughput"` // successful operations per second
	Latency    Latency          `json:"latency"`
	Service    *Latency         `json:"service,omitempty"` // open loop only
	// Overflow counts latencies above the histogram's 1 h limit, recorded as
	// 1 h: when it is not zero, max and the top percentiles are understated.
	Overflow int64 `json:"overflow"`
	// Docs is what the server did with documents over the successful
	// operations: returned, matched, modified, upserted, deleted, inserted,
	// and how many found nothing (empty) of those that could (shaped).
	Docs *metrics.Docs `json:"docs,omitempty"`
	// Histogram is the whole-run latency histogram (microseconds, 1 µs to
	// 1 h, 3 significant digits), HdrHistogram V2 compressed and base64
	// encoded: add these to merge the results of several processes.
	Histogram        string `json:"histogram"`
	ServiceHistogram string `json:"serviceHistogram,omitempty"`
}

// InMix reports whether the operation is one of the mix's operations, the
// ones Totals, throughput, objectives and verdicts count (metrics.InMix).
func (o *Operation) InMix() bool { return metrics.InMix(o.Parent) }

// Dropped is how many scheduled sends an open loop dropped (0 for a
// closed loop, which schedules none).
func (r *Result) Dropped() int64 {
	if r.Schedule == nil {
		return 0
	}
	return r.Schedule.Dropped
}

// MixOperations returns the mix's operations, their parts (transaction
// steps) left out: what every total is made of.
func (r *Result) MixOperations() []*Operation {
	out := make([]*Operation, 0, len(r.Operations))
	for i := range r.Operations {
		if r.Operations[i].InMix() {
			out = append(out, &r.Operations[i])
		}
	}
	return out
}

// StepOperations returns the operations that are parts of another (a
// transaction's steps), the complement of MixOperations.
func (r *Result) StepOperations() []*Operation {
	var out []*Operation
	for i := range r.Operations {
		if !r.Operations[i].InMix() {
			out = append(out, &r.Operations[i])
		}
	}
	return out
}

// FailedAttempts counts the executions of a step or part whose command
// failed (metrics.FailedAttempt outcomes).
func (o *Operation) FailedAttempts() int64 {
	var n int64
	for name, c := range o.Outcomes {
		if strings.HasPrefix(name, metrics.FailedAttempt) {
			n += c
		}
	}
	return n
}

// LatencyHistogram decodes the operation's latency histogram.
func (o *Operation) LatencyHistogram() (*hdrhistogram.Histogram, error) {
	return metrics.DecodeHistogram(o.Histogram)
}

// ServiceTimeHistogram decodes the operation's service-time histogram; it is
// nil, with no error, if the run recorded none.
func (o *Operation) ServiceTimeHistogram() (*hdrhistogram.Histogram, error) {
	if o.ServiceHistogram == "" {
		return nil, nil
	}
	return metrics.DecodeHistogram(o.ServiceHistogram)
}

// Latency summarizes a latency histogram, in milliseconds to the
// microsecond. Values are HDR bucket values, within 0.1% of the recorded
// ones; all are 0 when nothing was recorded.
type Latency struct {
	Min    float64 `json:"min"`
	Avg    float64 `json:"avg"`
	P50    float64 `json:"p50"`
	P95    float64 `json:"p95"`
	P99    float64 `json:"p99"`
	P999   float64 `json:"p999"`
	Max    float64 `json:"max"`
	StdDev float64 `json:"stddev"`
}

// CPUText says how much of the CPU it may use the client used: "85% of
// 1.5 cores (GOMAXPROCS/cgroup quota; the host has 8)".
func (c *ClientUsage) CPUText() string {
	return fmt.Sprintf("%.0f%% of %s", 100*c.Utilization, c.CoresText())
}

// CoresText is the CPU the client may use, in words.
func (c *ClientUsage) CoresText() string {
	avail := c.AvailableCPU
	if avail <= 0 || avail == float64(c.Cores) {
		return fmt.Sprintf("%d cores", c.Cores)
	}
	return fmt.Sprintf("the %s cores it may use (GOMAXPROCS and cgroup quota; the host has %d)", strconv.FormatFloat(avail, 'f', -1, 64), c.Cores)
}
