package replay

import (
	"fmt"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/results"
)

// Pace is how the replay was paced, for its report.
type Pace struct {
	Speed       float64 // 0: max
	Loops       int
	LateAfter   time.Duration
	PoolSize    int
	MaxInFlight int
}

// SpeedText is the speed as given: "1", "2", "max".
func (o Pace) SpeedText() string {
	if o.Speed == 0 {
		return "max"
	}
	return fmt.Sprintf("%g", o.Speed)
}

// Section is the replay's part of the run's result; it also adds the
// result's notes: a sample's coverage, damage, what was not sent, and the
// one sentence on why the replay could not keep the captured pace.
func (t *Trace) Section(res *results.Result, lag *Lag, o Pace) *results.Replay {
	rp := &results.Replay{Trace: t.Path, Speed: o.SpeedText(), Loops: max(o.Loops, 1), Entries: t.Entries, Sent: t.Sent,
		Damage: t.Damage.String(), CapturedSeconds: results.Round3(t.Span().Seconds()), LateAfterMs: float64(o.LateAfter.Milliseconds()), KeptPace: true}
	if len(t.Skipped) > 0 {
		rp.NotSent = t.Skipped
	}
	if o.Speed > 0 {
		rp.ScheduledSeconds = results.Round3(t.Span().Seconds() / o.Speed * float64(rp.Loops))
	}
	rp.Complete, rp.Coverage = t.Coverage()
	if o.Speed > 0 { // at --speed max there is no schedule to lag behind
		rp.SendLag, rp.SendLagByInterval = lag.Summary()
	}
	if s := res.Schedule; s != nil {
		rp.Late, rp.Dropped = s.Late, s.Dropped
	}
	if !rp.Complete {
		res.Notes = append(res.Notes, "the trace is a sample of what the application sent, not all of it: "+rp.Coverage)
	}
	if rp.Damage != "" {
		res.Notes = append(res.Notes, "the trace did not read whole: "+rp.Damage+"; what read was replayed")
	}
	if len(t.Skipped) > 0 {
		res.Notes = append(res.Notes, "not sent"+strings.TrimPrefix(t.skippedText(), "; not sent"))
	}
	if o.Speed > 0 {
		rp.Behind = t.behind(res, rp, o)
		rp.KeptPace = rp.Behind == ""
		if !rp.KeptPace {
			res.Notes = append(res.Notes, rp.Behind)
		}
	}
	return rp
}

// Coverage says whether the sources recorded every operation, in their
// own words.
func (t *Trace) Coverage() (bool, string) {
	if t.Trailer == nil || len(t.Trailer.Sources) == 0 {
		return false, "unknown: the trace has no trailer (it was cut short), so what its source recorded is not known"
	}
	all := true
	var parts []string
	for _, s := range t.Trailer.Sources {
		all = all && s.Complete && (s.Sampling == 0 || s.Sampling >= 1)
		parts = append(parts, s.Name+": "+s.Why)
	}
	return all, strings.Join(parts, "; ")
}

// behind is the one sentence on a replay that did not keep the captured
// pace, and why: the client's CPU, its scheduler, its pool, the in-flight
// cap, or the server; "" when it kept it (nothing dropped, at most 1% of
// the operations sent late).
func (t *Trace) behind(res *results.Result, rp *results.Replay, o Pace) string {
	sent := float64(t.Sent) * float64(rp.Loops)
	if rp.Dropped == 0 && float64(rp.Late) <= 0.01*sent {
		return ""
	}
	what := fmt.Sprintf("the replay could not keep the captured pace at speed %s: %d of %.0f operations sent more than %s late", rp.Speed, rp.Late, sent, o.LateAfter)
	if rp.SendLag != nil {
		what += fmt.Sprintf(" (send lag p99 %.1f ms, max %.1f ms)", rp.SendLag.P99, rp.SendLag.Max)
	}
	if rp.Dropped > 0 {
		what += fmt.Sprintf(", %d dropped", rp.Dropped)
	}
	inFlight := int64(0)
	for _, iv := range res.Intervals {
		if iv.Load != nil {
			inFlight = max(inFlight, iv.Load.InFlight)
		}
	}
	srcMean := 0.0
	if t.Sent > 0 {
		srcMean = float64(t.SourceTime.Microseconds()) / 1e3 / float64(t.Sent)
	}
	svc := res.Totals.Latency
	if res.Totals.Service != nil {
		svc = *res.Totals.Service
	}
	// The server is the cause when it answered much slower than the source
	// did; a full pool or in-flight cap is then its consequence, not its cause.
	serverSlow := svc.Avg > 2*srcMean+1
	poolFull := o.PoolSize > 0 && inFlight >= int64(o.PoolSize)
	var why string
	switch c := res.Client; {
	case c != nil && c.Utilization >= results.Saturated:
		why = "the client: its CPU was saturated (" + c.CPUText() + ")"
	case c != nil && c.SchedulerBusy >= results.Saturated:
		why = fmt.Sprintf("the client: its scheduler was busy %.0f%% of an interval", 100*c.SchedulerBusy)
	case serverSlow:
		why = fmt.Sprintf("the server: it answered in %.2f ms on average (p99 %.2f ms) from the send, against %.2f ms on the source", svc.Avg, svc.P99, srcMean)
		if poolFull {
			why += fmt.Sprintf(", with all %d pooled connections waiting on it", o.PoolSize)
		}
	case rp.Dropped > 0:
		why = fmt.Sprintf("every in-flight place was taken (--max-in-flight %d)", o.MaxInFlight)
	case poolFull:
		why = fmt.Sprintf("its connection pool: all %d connections were in use (--max-pool-size), while the server answered as fast as the source (%.2f ms on average, %.2f ms there)", o.PoolSize, svc.Avg, srcMean)
	default:
		why = fmt.Sprintf("the client's sends: the server answered in %.2f ms on average, as on the source (%.2f ms), yet the operations left late (another process on this host, or the Go runtime, held the client back)", svc.Avg, srcMean)
	}
	return what + "; why: " + why
}
