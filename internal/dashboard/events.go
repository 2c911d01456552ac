package dashboard

import (
	"time"

	"github.com/mongoload/mongoload/internal/loader"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
)

// The payloads of the API's events, as docs/dashboard.md describes them.
// Times "at" are Unix milliseconds; latencies milliseconds.

// Info is GET /api/run: what runs and how far it is.
type Info struct {
	Command  string           `json:"command"` // run, sweep or load
	Tool     results.Tool     `json:"tool"`
	Workload results.Workload `json:"workload"`
	Label    string           `json:"label,omitempty"`
	// State is "waiting" (setting up, seeding), "running", "finished".
	State string `json:"state"`
	// Step counts the measured phases begun: 1 for a run, one per sweep
	// step or battery run.
	Step int `json:"step"`
	// Run is the current (or last) measured phase.
	Run     *RunView               `json:"run,omitempty"`
	Sweep   *SweepView             `json:"sweep,omitempty"`
	Context *results.ServerContext `json:"context,omitempty"`
	// Links are the downloads, once the run is over: "report" (the HTML
	// report) and "results" (the JSON results).
	Links map[string]string `json:"links,omitempty"`
	// Trimmed counts the oldest events dropped from a very long history.
	Trimmed int64 `json:"trimmed,omitempty"`
}

// RunView is one measured phase: event "run" when it begins.
type RunView struct {
	Step       int               `json:"step"`
	Load       results.LoadModel `json:"load"`
	ConfigLine string            `json:"configLine,omitempty"`
	Ops        []OpView          `json:"ops"`
	Warmup     float64           `json:"warmupSeconds"`
	At         int64             `json:"at"`
	// Interval is the reporting interval in seconds.
	Interval float64 `json:"intervalSeconds"`
}

// OpView is one operation of the workload.
type OpView struct {
	Name   string `json:"name"`
	Type   string `json:"type,omitempty"`
	Parent string `json:"parent,omitempty"` // a transaction's step: not in the totals
}

// SweepView is a sweep's plan and progress.
type SweepView struct {
	Parameter string      `json:"parameter"` // concurrency, rate or sessions
	Levels    []float64   `json:"levels"`
	Steps     []StepEvent `json:"steps"` // the finished ones
}

// Snapshot is one interval: event "interval" and GET /api/snapshots.
type Snapshot struct {
	Step int     `json:"step"`
	At   int64   `json:"at"` // the interval's end
	T    float64 `json:"t"`  // seconds since the phase began
	Dt   float64 `json:"dt"`
	// Partial marks the phase's last interval cut short (results.Partial):
	// the charts leave it out, its rates would be noise.
	Partial bool `json:"partial,omitempty"`
	// Total is every operation but transaction steps, their histograms
	// added for the percentiles.
	Total  TotalView               `json:"total"`
	Ops    []results.OpSummary     `json:"ops"`
	Load   *results.IntervalLoad   `json:"load,omitempty"`
	Client *results.IntervalClient `json:"client,omitempty"`
}

// TotalView is all operations together during one interval.
type TotalView struct {
	Count  int64   `json:"count"`
	Rate   float64 `json:"rate"`
	Errors int64   `json:"errors"`
	P50    float64 `json:"p50"`
	P95    float64 `json:"p95"`
	P99    float64 `json:"p99"`
	Max    float64 `json:"max"`
}

// ServerEvent is one telemetry sample: event "server".
type ServerEvent struct {
	Step int   `json:"step"`
	At   int64 `json:"at"`
	// Partial marks a sample cut short (the final one, usually), as
	// Snapshot.Partial.
	Partial bool `json:"partial,omitempty"`
	results.ServerSample
}

// StepEvent is a finished sweep step: event "step".
type StepEvent struct {
	Index      int     `json:"index"` // 1-based
	Level      float64 `json:"level"`
	Complete   bool    `json:"complete"`
	Throughput float64 `json:"throughput"`
	P99        float64 `json:"p99"`
	Errors     int64   `json:"errors"`
	ClientCPU  float64 `json:"clientCPU,omitempty"` // share of the cores, 0..1
}

// ProgressEvent is a load's progress: event "progress".
type ProgressEvent struct {
	At         int64   `json:"at"`
	Collection string  `json:"collection"`
	Done       int64   `json:"done"`
	Total      int64   `json:"total"`
	Fraction   float64 `json:"fraction"`
	Rate       float64 `json:"rate"` // documents per second so far
	MBps       float64 `json:"mbps"`
	ETASeconds float64 `json:"etaSeconds"`
	Final      bool    `json:"final"`
}

// ResultEvent is a measured phase's result: event "result". Histograms and
// the series are left out (the results file has them, the page has the
// series from the interval and server events).
type ResultEvent struct {
	Step   int             `json:"step"`
	Result *results.Result `json:"result"`
}

// DoneEvent says the command is over: event "done".
type DoneEvent struct {
	Links map[string]string `json:"links,omitempty"`
	Error string            `json:"error,omitempty"`
}

// snapshot reduces an interval of a phase whose intervals are nominal
// seconds long for the page; sum is its results.Summarize.
func snapshot(step int, iv *metrics.Interval, sum results.IntervalSummary, nominal float64) Snapshot {
	s := Snapshot{Step: step, At: iv.End.UnixMilli(), T: sum.T, Dt: sum.Dt, Ops: sum.Ops, Load: sum.Load, Client: sum.Client,
		Partial: results.Partial(sum.Dt, nominal)}
	all, errs := iv.MixTotal() // a transaction once, its steps left out
	s.Total.Errors = errs
	s.Total.Count = all.TotalCount()
	if sum.Dt > 0 {
		s.Total.Rate = round3(float64(s.Total.Count) / sum.Dt)
	}
	if s.Total.Count > 0 {
		l := results.LatencyOf(all)
		s.Total.P50, s.Total.P95, s.Total.P99, s.Total.Max = l.P50, l.P95, l.P99, l.Max
	}
	return s
}

// progress converts a loader's progress.
func progress(p loader.Progress, at time.Time) ProgressEvent {
	return ProgressEvent{
		At: at.UnixMilli(), Collection: p.Collection, Done: p.Done(), Total: p.Total, Fraction: round3(p.Fraction()),
		Rate: round3(p.Rate()), MBps: round3(p.MBps()), ETASeconds: p.ETA().Seconds(), Final: p.Final,
	}
}

// lean is res without its histograms, for the page.
func lean(res *results.Result) *results.Result {
	if res == nil {
		return nil
	}
	out := *res
	out.Config, out.Intervals = nil, nil // the page has the series already
	if res.Server != nil {
		srv := *res.Server
		srv.Samples = nil
		out.Server = &srv
	}
	out.Operations = append([]results.Operation(nil), res.Operations...)
	for i := range out.Operations {
		out.Operations[i].Histogram, out.Operations[i].ServiceHistogram = "", ""
	}
	if res.Slow != nil {
		s := *res.Slow
		s.Shapes = append([]results.SlowShape(nil), s.Shapes...)
		for i := range s.Shapes {
			s.Shapes[i].Histogram = ""
		}
		out.Slow = &s
	}
	return &out
}

func round3(f float64) float64 {
	return float64(int64(f*1000+0.5)) / 1000
}
