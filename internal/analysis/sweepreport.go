package analysis

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/results"
)

// SweepOptions are the rules of a sweep's analysis.
type SweepOptions struct {
	Rules SweepRules
	// Latency is the latency the verdicts use: avg (default), p50, p95, p99.
	Latency string
	// ClientCPU is the share of the CPU the client may use (0..1) at which
	// the load generator itself is named as the limit.
	ClientCPU float64
}

// DefaultSweepOptions are the sweep command's defaults.
func DefaultSweepOptions() SweepOptions {
	return SweepOptions{Rules: DefaultSweepRules(), Latency: "avg", ClientCPU: 0.8}
}

// Validate checks the options, naming the flag at fault.
func (o SweepOptions) Validate() error {
	if err := o.Rules.Validate(); err != nil {
		return err
	}
	switch o.Latency {
	case "avg", "p50", "p95", "p99":
	default:
		return fmt.Errorf("--verdict-latency %q: choose avg, p50, p95 or p99", o.Latency)
	}
	return config.CheckNumber(config.FlagSource("client-cpu-limit"), o.ClientCPU, config.ClientCPURange)
}

// Thresholds that name a server resource as the limit (docs/sweep.md).
const (
	// DirtyLimit: WiredTiger makes application threads evict when dirty
	// data reaches 20% of the cache (eviction_dirty_trigger).
	DirtyLimit = 0.20
	// CacheFullLimit: at 95% use (eviction_trigger) application threads
	// evict too.
	CacheFullLimit = 0.95
	// ConnectionsLimit: connections in use beyond which new ones may be
	// refused.
	ConnectionsLimit = 0.90
)

// AnalyseSweep computes every step's figures and verdict, names the sweet
// spot, the saturation point and the highest throughput, and says what
// limited the run. Steps that are not complete (an interrupted step) get
// figures but no verdict.
func AnalyseSweep(sw *results.Sweep, o SweepOptions) (*results.SweepAnalysis, error) {
	a := &results.SweepAnalysis{Rules: results.SweepThresholds{
		LinearGain: o.Rules.LinearGain, KneeGain: o.Rules.KneeGain, LatencyKnee: o.Rules.LatencyKnee,
		Plateau: o.Rules.Plateau, DegradedDrop: o.Rules.DegradedDrop, Oversaturated: o.Rules.Oversaturated,
		Latency: o.Latency, ClientCPU: o.ClientCPU,
	}, Steps: []results.StepFigures{}, Summary: []string{}}
	var judged []int // indexes into a.Steps of the complete steps
	var pts []SweepPoint
	for i, st := range sw.Steps {
		if st.Result == nil {
			return nil, fmt.Errorf("step %d (%s) has no result", i+1, sw.Load.Describe(st.Level))
		}
		f, err := StepFiguresOf(st.Level, st.Complete, st.Result)
		if err != nil {
			return nil, fmt.Errorf("step %d (%s): %w", i+1, sw.Load.Describe(st.Level), err)
		}
		a.Steps = append(a.Steps, f)
		if st.Complete {
			judged = append(judged, i)
			pts = append(pts, SweepPoint{Level: st.Level, Throughput: f.Throughput, Latency: pick(f.Latency, o.Latency)})
		}
	}
	if why := allFailed(sw, a.Steps); why != "" {
		return failedAnalysis(sw, a, why), nil
	}
	j := JudgeSweep(pts, o.Rules)
	for k, i := range judged {
		a.Steps[i].Verdict = string(j.Verdicts[k])
		if !math.IsNaN(j.Gain[k]) {
			g := round3(j.Gain[k])
			a.Steps[i].Gain = &g
		}
	}
	at := func(k int) *int {
		if k < 0 {
			return nil
		}
		i := judged[k]
		return &i
	}
	a.SweetSpot, a.Saturation, a.Plateau, a.Best = at(j.SweetSpot), at(j.Saturation), at(j.Plateau), at(j.Best)
	a.Limit = limitOf(sw, a, o)
	a.Summary = summarize(sw, a, o)
	return a, nil
}

// pick is the latency the verdicts use.
func pick(l results.Latency, which string) float64 {
	switch which {
	case "p50":
		return l.P50
	case "p95":
		return l.P95
	case "p99":
		return l.P99
	}
	return l.Avg
}

// limitOf says in one sentence what limited the run: the load generator
// when its own CPU use reached the limit at or past saturation (so a
// saturated client is never taken for a saturated server), else the
// server resource its telemetry shows under pressure, else the server.
func limitOf(sw *results.Sweep, a *results.SweepAnalysis, o SweepOptions) results.Limit {
	complete := 0
	for _, f := range a.Steps {
		if f.Complete {
			complete++
		}
	}
	if complete < 2 {
		return results.Limit{Kind: "unknown", Text: "too few complete steps to say what limited the run"}
	}
	from := lastComplete(a.Steps) // without saturation, the highest step
	if a.Saturation != nil {
		from = *a.Saturation
	}
	if l, ok := clientLimit(sw, a, from, len(a.Steps), o); ok {
		return l
	}
	if a.Saturation == nil {
		top := a.Steps[from]
		return results.Limit{Kind: "none", Text: fmt.Sprintf("nothing yet: throughput still grew at the highest step (%s); sweep higher to find the limit", sw.Load.Describe(top.Level))}
	}
	return limitFrom(sw, a, from)
}

// LimitAt says what limited step i, whatever the verdicts say: the load
// generator (its CPU, its scheduler) at that step, else its connection
// pool, else the server resource under pressure from it on. A rate search
// asks it of its first failing rate above the maximum.
func LimitAt(sw *results.Sweep, a *results.SweepAnalysis, i int, o SweepOptions) results.Limit {
	if l, ok := clientLimit(sw, a, i, i+1, o); ok {
		return l
	}
	return limitFrom(sw, a, i)
}

// clientLimit names the load generator as the limit when, at a step from
// from to before to, its own CPU reached the limit or its scheduler was
// saturated, so a saturated client is never taken for a saturated server.
func clientLimit(sw *results.Sweep, a *results.SweepAnalysis, from, to int, o SweepOptions) (results.Limit, bool) {
	desc := sw.Load.Describe
	for i := from; i < to; i++ {
		f := a.Steps[i]
		if f.Complete && f.ClientCPU != nil && *f.ClientCPU >= o.ClientCPU {
			c := results.ClientUsage{Utilization: *f.ClientCPU, Cores: f.ClientCores, AvailableCPU: f.ClientCPUAvailable}
			text := fmt.Sprintf("the load generator itself: mongoload used %s at %s, so the server's own limit was not reached; give mongoload more CPU (GOMAXPROCS, its cgroup's quota, a bigger machine) or split the load over several with --partition",
				c.CPUText(), desc(f.Level))
			return results.Limit{Kind: "client", Text: text}, true
		}
		if f.Complete && f.SchedulerBusy >= results.Saturated {
			what := "operations"
			if sw.Load.Type == results.Sessions {
				what = "sessions"
			}
			text := fmt.Sprintf("the load generator's scheduler: the one goroutine that schedules the %s was busy %.0f%% of its busiest interval at %s, so it, not the server, set the pace; split the load over several processes with --partition",
				what, 100*f.SchedulerBusy, desc(f.Level))
			return results.Limit{Kind: "client-scheduler", Text: text}, true
		}
	}
	return results.Limit{}, false
}

// limitFrom names the client's in-flight limit when step from ran above
// it (past it, more workers only queue inside mongoload and the server's
// load stops growing), else the server resource under pressure from step
// from on, saying so when the server shares this machine with the client.
func limitFrom(sw *results.Sweep, a *results.SweepAnalysis, from int) results.Limit {
	desc := sw.Load.Describe
	sat := a.Steps[from]
	if sat.AboveInFlightLimit {
		n := sat.InFlightLimit
		text := fmt.Sprintf("the client's connection pool: it allows %d operations in flight, so above %s the extra workers only waited inside mongoload and the server never had more than %d operations at once; raise --max-pool-size (or --max-in-flight) to at least the highest level, or sweep no higher than %s",
			n, desc(float64(n)), n, desc(float64(n)))
		return results.Limit{Kind: "client-pool", Text: text}
	}
	lim := serverLimit(sw, a, from)
	if host, ok := localServer(sw); ok {
		share := ""
		if sat.ClientCPU != nil {
			share = fmt.Sprintf(", mongoload using %.0f%% of them at %s", 100**sat.ClientCPU, desc(sat.Level))
		}
		cores := ""
		if sat.ClientCores > 0 {
			cores = fmt.Sprintf("%d ", sat.ClientCores)
		}
		lim.Text += fmt.Sprintf("; the server runs on this machine (%s) and shares its %scores with the client%s", host, cores, share)
	}
	return lim
}

// serverLimit names the server resource under pressure from step from on.
func serverLimit(sw *results.Sweep, a *results.SweepAnalysis, from int) results.Limit {
	desc := sw.Load.Describe
	telemetry := false
	for i := from; i < len(a.Steps); i++ {
		f := a.Steps[i]
		s := f.Server
		if s == nil || !f.Complete {
			continue
		}
		telemetry = true
		switch {
		case s.TicketsMin != nil && *s.TicketsMin == 0:
			return results.Limit{Kind: "server-tickets", Text: fmt.Sprintf("the server's storage engine: no read or write tickets were free at %s, so operations queued inside the server", desc(f.Level))}
		case s.CacheDirty != nil && *s.CacheDirty >= DirtyLimit:
			return results.Limit{Kind: "server-cache", Text: fmt.Sprintf("the server's WiredTiger cache: dirty data reached %.0f%% of it at %s (from 20%% application threads must help evict)", 100**s.CacheDirty, desc(f.Level))}
		case s.CacheUsed != nil && *s.CacheUsed >= CacheFullLimit && s.PagesReadPerSec != nil && *s.PagesReadPerSec > 0:
			return results.Limit{Kind: "server-cache", Text: fmt.Sprintf("the server's WiredTiger cache: %.0f%% full, reading %.0f pages/s from disk at %s: the working set does not fit in it", 100**s.CacheUsed, *s.PagesReadPerSec, desc(f.Level))}
		case s.Connections != nil && *s.Connections >= ConnectionsLimit:
			return results.Limit{Kind: "server-connections", Text: fmt.Sprintf("the server's connections: %.0f%% of those available were in use at %s", 100**s.Connections, desc(f.Level))}
		}
	}
	sat := a.Steps[from]
	if s := sat.Server; s != nil && s.CPUCores != nil {
		text := fmt.Sprintf("the server, most likely its CPU: it used %.2f cores at %s", *s.CPUCores, desc(sat.Level))
		if a.SweetSpot != nil {
			if sp := a.Steps[*a.SweetSpot].Server; sp != nil && sp.CPUCores != nil {
				text += fmt.Sprintf(" (%.2f at the sweet spot)", *sp.CPUCores)
			}
		}
		return results.Limit{Kind: "server-cpu", Text: text + ", while its cache, tickets and connections showed no pressure"}
	}
	if telemetry {
		return results.Limit{Kind: "server", Text: "the server: its telemetry shows no cache, ticket or connection pressure and it does not report its CPU; look at its CPU and disk"}
	}
	return results.Limit{Kind: "server", Text: "the server (no telemetry to say which resource)"}
}

func lastComplete(steps []results.StepFigures) int {
	for i := len(steps) - 1; i >= 0; i-- {
		if steps[i].Complete {
			return i
		}
	}
	return 0
}

// localServer reports whether the sweep's server is on this machine's
// loopback, from the URI its first step recorded.
func localServer(sw *results.Sweep) (string, bool) {
	for _, st := range sw.Steps {
		if st.Result == nil {
			continue
		}
		if host, ok := loopbackHost(st.Result.Config); ok {
			return host, true
		}
		return "", false
	}
	return "", false
}

// loopbackHost finds connection.uri in a recorded configuration and
// reports whether every host of it is a loopback address.
func loopbackHost(cfg json.RawMessage) (string, bool) {
	var c struct {
		Connection struct {
			URI string `json:"uri"`
		} `json:"connection"`
	}
	if len(cfg) == 0 || json.Unmarshal(cfg, &c) != nil || c.Connection.URI == "" {
		return "", false
	}
	return results.LoopbackHost(c.Connection.URI)
}

// summarize puts the analysis in a few sentences.
func summarize(sw *results.Sweep, a *results.SweepAnalysis, o SweepOptions) []string {
	desc := sw.Load.Describe
	var out []string
	lat := func(f results.StepFigures) string {
		return fmt.Sprintf("%s avg, %s p99", ms(f.Latency.Avg), ms(f.Latency.P99))
	}
	switch {
	case a.SweetSpot != nil:
		f := a.Steps[*a.SweetSpot]
		out = append(out, fmt.Sprintf("Sweet spot: %s, %s ops/s at %s: the best throughput before latency grows faster than throughput.", desc(f.Level), whole(f.Throughput), lat(f)))
		switch {
		case *a.SweetSpot == 0 && f.Level == 1 && sw.Load.Parameter == "concurrency":
			out = append(out, "One worker is already the sweet spot: the server gains nothing from concurrent operations here.")
		case *a.SweetSpot == 0:
			out = append(out, "The lowest step is already the sweet spot: sweep lower to see how the system scales.")
		}
	case a.Best != nil && len(a.Steps) > 1:
		out = append(out, "No sweet spot: throughput still grew at the highest step.")
	}
	if a.Saturation != nil {
		f := a.Steps[*a.Saturation]
		prev := a.Steps[*a.SweetSpot]
		out = append(out, fmt.Sprintf("Saturation begins at %s: %+.1f%% throughput for %+.0f%% load, %s latency x%.2f.",
			desc(f.Level), pct(f.Throughput, prev.Throughput), pct(f.Level, prev.Level), o.Latency, ratio(pick(f.Latency, o.Latency), pick(prev.Latency, o.Latency))))
	}
	if a.Best != nil {
		f := a.Steps[*a.Best]
		out = append(out, fmt.Sprintf("Max throughput: %s ops/s at %s (%s).", whole(f.Throughput), desc(f.Level), lat(f)))
	}
	out = append(out, "Limit: "+a.Limit.Text+".")
	var above []string
	for _, f := range a.Steps {
		if f.AboveInFlightLimit {
			above = append(above, desc(f.Level))
		}
	}
	if len(above) > 0 && a.Limit.Kind != "client-pool" {
		out = append(out, fmt.Sprintf("Above the client's in-flight limit: %s (workers beyond the limit only queue inside mongoload; those steps add no load on the server).", strings.Join(above, ", ")))
	}
	var errSteps []string
	for _, f := range a.Steps {
		if f.Errors > 0 {
			errSteps = append(errSteps, fmt.Sprintf("%s at %s", pctOf(f.Errors, f.Operations+f.Errors), desc(f.Level)))
		}
	}
	if len(errSteps) > 0 {
		out = append(out, "Errors: "+strings.Join(errSteps, ", ")+" of operations failed; throughput counts successes only.")
	}
	return out
}

func ms(v float64) string {
	switch {
	case v < 10:
		return fmt.Sprintf("%.2f ms", v)
	case v < 100:
		return fmt.Sprintf("%.1f ms", v)
	}
	return fmt.Sprintf("%.0f ms", v)
}

// whole formats a rate with thousands separators.
func whole(f float64) string { return results.Thousands(int64(math.Round(f))) }

func pct(now, before float64) float64 {
	if before == 0 {
		return 0
	}
	return 100 * (now/before - 1)
}

func ratio(now, before float64) float64 {
	if before == 0 {
		return 0
	}
	return now / before
}

func pctOf(n, of int64) string {
	if of == 0 {
		return "0%"
	}
	// Two significant digits, never an exponent: 100% reads "100%", not "1e+02%".
	v := 100 * float64(n) / float64(of)
	if v >= 10 {
		return fmt.Sprintf("%.0f%%", v)
	}
	if v < 0.01 {
		return "<0.01%"
	}
	return fmt.Sprintf("%.2g%%", v)
}
