package metrics

import (
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Interval is everything recorded between Start and End. It is immutable
// once returned, so several sinks may read it concurrently.
type Interval struct {
	Start, End time.Time
	Ops        []OpInterval // indexed like Recorder.Ops
	// Load is what the load model did; the engine sets its gauges before
	// handing the interval on.
	Load Load
	// ClientCPU is this process's CPU time (user + system) during the
	// interval, set once per interval by whoever hands it on to the sinks;
	// nil where it was not read.
	ClientCPU *time.Duration
}

// OpInterval is what one operation recorded during an interval.
type OpInterval struct {
	Name string
	// Parent is set on a part of another operation (a transaction's step):
	// see InMix.
	Parent string
	// Latency holds successful operations' latencies in microseconds; in an
	// open-loop run it is the response time from the scheduled start.
	Latency *hdrhistogram.Histogram
	// Service holds service times in microseconds, measured from the actual
	// send; nil unless the Recorder was made with Options.Service.
	Service *hdrhistogram.Histogram
	// Errors counts failed operations by error class; nil if there were none.
	Errors map[string]int64
	// Overflow counts samples above Highest, which were recorded as Highest.
	Overflow int64
	// Docs is what the server did with documents, over the successful
	// operations (RecordDocs).
	Docs Docs
	// Outcomes counts named outcomes that are neither successes nor errors
	// (RecordOutcome); nil if there were none.
	Outcomes map[string]int64
}

// Count is the number of successful operations recorded.
func (o *OpInterval) Count() int64 { return o.Latency.TotalCount() }

// ErrorCount is the number of failed operations, all classes together.
func (o *OpInterval) ErrorCount() int64 { return sumErrors(o.Errors) }

// newStamped returns an empty histogram carrying its interval's start and end
// times, which the standard interval log format (.hlog) writes out.
func newStamped(start, end time.Time) *hdrhistogram.Histogram {
	h := NewHistogram()
	h.SetStartTimeMs(start.UnixMilli())
	h.SetEndTimeMs(end.UnixMilli())
	return h
}

// InMix reports whether an operation whose parent is parent is one of the
// mix's operations. This is the one rule for what counts as an operation:
// a transaction is one operation of the mix, however many steps it runs;
// its steps are parts of it, recorded and reported in rows of their own
// but never added into totals, rates, objectives or verdicts, where the
// transaction already counts once. Every consumer asks this function (or
// the InMix methods that call it).
func InMix(parent string) bool { return parent == "" }

// InMix reports whether the operation is one of the mix's (see InMix).
func (o *OpInterval) InMix() bool { return InMix(o.Parent) }

// MixTotal adds the interval's mix operations, their parts left out: the
// successes' latencies, the errors, and the count of both.
func (iv *Interval) MixTotal() (latency *hdrhistogram.Histogram, errs int64) {
	latency = NewHistogram()
	for i := range iv.Ops {
		if o := &iv.Ops[i]; o.InMix() {
			latency.Merge(o.Latency)
			errs += o.ErrorCount()
		}
	}
	return latency, errs
}

// Where a latency starts (every latency ends at the reply), by load model:
// the values of report.LoadModel.LatencyFrom, set from engine.Clock.
const (
	// FromSend: closed loop with a runner per worker, from just before the
	// driver is called.
	FromSend = "send"
	// FromReady: closed loop whose workers outnumber the in-flight limit,
	// from when the worker was ready to send, its wait for an in-flight
	// place included.
	FromReady = "ready"
	// FromDue: sessions, from when the session's operation was due after
	// its think time, its wait for an in-flight place included.
	FromDue = "due"
	// FromScheduled: open loop, from the operation's scheduled start (the
	// response time, queueing included).
	FromScheduled = "scheduled"
)
