package sink

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
)

// YCSBStatusOptions shape YCSB's status lines (--format ycsb).
type YCSBStatusOptions struct {
	// StatusInterval is the time between status lines (YCSB's
	// status.interval); 0 means YCSB's 10 s.
	StatusInterval time.Duration
	// Operations is the run's operation count, for "est completion in";
	// 0 when the run is limited by time only.
	Operations int64
	// Location is the time zone of the status lines' clock; nil is local.
	Location *time.Location
	// Types are the operations' types by name (workload.Plan.OpTypes), for
	// the status lines to count a read-modify-write's read and update in
	// READ and UPDATE as YCSB does (results.YCSBMeasurement).
	Types map[string]string
}

func (o YCSBStatusOptions) withDefaults() YCSBStatusOptions {
	if o.StatusInterval <= 0 {
		o.StatusInterval = 10 * time.Second
	}
	if o.Location == nil {
		o.Location = time.Local
	}
	return o
}

// ycsbStatusPercentiles are the percentiles of YCSB's status lines.
var ycsbStatusPercentiles = []float64{50, 90, 99, 99.9, 99.99}

// NewYCSBStatusSink returns a sink that writes YCSB's status lines (what
// YCSB prints with -s) to w, one per status interval and one at the end:
//
//	2026-01-02 15:04:15:000 10 sec: 41200 operations; 4120 current ops/sec; [READ: Count=..., Max=..., Min=..., Avg=..., 50=..., 90=..., 99=..., 99.9=..., 99.99=...] [UPDATE: ...]
//
// Operation counts include failed operations, as YCSB's do; each
// operation's figures are its successful operations' latencies in µs over
// the status interval. An operation appears from its first execution on.
// In open loop, [NAME] is the service time and [Intended-NAME] the latency
// from the intended start, as YCSB's measurement.interval=both.
func NewYCSBStatusSink(w io.Writer, o YCSBStatusOptions) Sink {
	o = o.withDefaults()
	return &ycsbStatus{w: w, o: o, next: o.StatusInterval}
}

type ycsbStatus struct {
	w   io.Writer
	o   YCSBStatusOptions
	err error

	sections results.YCSBSections
	of       []*results.YCSBSection // each interval operation's section
	isPart   []bool
	total    int64 // operations done, failed ones included
	lastLine int64 // total at the last status line
	span     time.Duration
	next     time.Duration // elapsed time of the next status line
	elapsed  time.Duration
	end      time.Time
}

func (s *ycsbStatus) Name() string { return "YCSB status" }

func (s *ycsbStatus) Interval(snap *Snapshot) {
	iv, elapsed := snap.Interval, snap.Elapsed
	if s.of == nil {
		s.of, s.isPart = make([]*results.YCSBSection, len(iv.Ops)), make([]bool, len(iv.Ops))
		for i := range iv.Ops {
			s.of[i], s.isPart[i] = s.sections.Of(iv.Ops[i].Name, iv.Ops[i].Parent, s.o.Types)
		}
	}
	for i := range iv.Ops {
		o, a := &iv.Ops[i], s.of[i]
		n := o.Count() + o.ErrorCount()
		if o.InMix() { // a transaction's steps are parts of one operation
			s.total += n
		}
		a.Seen = a.Seen || n > 0
		a.Add(o.Latency, o.Service, s.isPart[i])
	}
	dt := iv.End.Sub(iv.Start)
	s.span += dt
	s.elapsed, s.end = elapsed, iv.End
	if elapsed+dt/2 >= s.next {
		s.line()
		for s.next <= elapsed+dt/2 {
			s.next += s.o.StatusInterval
		}
	}
}

// Close writes the final status line, as YCSB does when its threads end.
func (s *ycsbStatus) Close(*results.Result) error {
	if s.of != nil {
		s.line()
	}
	return s.err
}

// line writes one status line and starts the next status interval.
func (s *ycsbStatus) line() {
	if s.err != nil {
		return
	}
	var b strings.Builder
	t := s.end.In(s.o.Location)
	fmt.Fprintf(&b, "%s:%03d %d sec: %d operations; ", t.Format("2006-01-02 15:04:05"), t.Nanosecond()/1e6, int64(s.elapsed/time.Millisecond)/1000, s.total)
	if s.total != 0 {
		cur := 0.0
		if ms := s.span.Milliseconds(); ms > 0 {
			cur = 1000 * float64(s.total-s.lastLine) / float64(ms)
		}
		b.WriteString(decimal2(cur) + " current ops/sec; ")
	}
	if todo := s.o.Operations - s.total; s.o.Operations > 0 && todo > 0 && s.total > 0 && s.elapsed > 0 {
		throughput := 1000 * float64(s.total) / float64(s.elapsed.Milliseconds())
		b.WriteString("est completion in " + remaining(int64(math.Ceil(float64(todo)/throughput))))
	}
	for _, a := range s.sections.List { // the operations, then their intended latencies
		if a.Seen {
			b.WriteString(statusSummary(a.Name, a.Main()))
		}
	}
	for _, a := range s.sections.List {
		if a.Seen && a.Intended != nil {
			b.WriteString(statusSummary("Intended-"+a.Name, a.Intended))
		}
	}
	b.WriteByte('\n')
	_, s.err = io.WriteString(s.w, b.String())
	for _, a := range s.sections.List {
		a.Reset()
	}
	s.lastLine, s.span = s.total, 0
}

// statusSummary is one operation's part of a status line, trailing blank
// included, as OneMeasurementHdrHistogram.getSummary writes it.
func statusSummary(name string, h *hdrhistogram.Histogram) string {
	q := h.ValueAtPercentilesSlice(ycsbStatusPercentiles)
	for i := range q {
		q[i] = min(q[i], metrics.HighestMicros)
	}
	return fmt.Sprintf("[%s: Count=%d, Max=%d, Min=%d, Avg=%s, 50=%d, 90=%d, 99=%d, 99.9=%d, 99.99=%d] ",
		name, h.TotalCount(), metrics.ReportedMax(h), h.Min(), decimal2(h.Mean()), q[0], q[1], q[2], q[3], q[4])
}

// decimal2 formats f as Java's DecimalFormat("#.##") does in YCSB's status
// lines: at most two decimals, rounded half to even, no trailing zeros, and
// no integer digit when it would be a lone 0 (".5"); zero is "0".
func decimal2(f float64) string {
	s := strconv.FormatFloat(f, 'f', 2, 64) // exact ties round to even, as HALF_EVEN
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	switch {
	case s == "0" || s == "-0" || s == "":
		return "0"
	case strings.HasPrefix(s, "0."):
		return s[1:]
	case strings.HasPrefix(s, "-0."):
		return "-" + s[2:]
	}
	return s
}

// remaining formats seconds left as YCSB's RemainingFormatter does, its
// quirks included ("1 minute ", "2 hours 5 minutes ", "9 second ").
func remaining(seconds int64) string {
	var b strings.Builder
	unit := func(n int64, one, many string) {
		b.WriteString(strconv.FormatInt(n, 10))
		if n == 1 {
			b.WriteString(one)
		} else {
			b.WriteString(many)
		}
	}
	days := seconds / 86400
	if days > 0 {
		unit(days, " day ", " days ")
		seconds -= days * 86400
	}
	if hours := seconds / 3600; hours > 0 {
		unit(hours, " hour ", " hours ")
		seconds -= hours * 3600
	}
	if days < 1 {
		if minutes := seconds / 60; minutes > 0 {
			unit(minutes, " minute ", " minutes ")
		}
	}
	if b.Len() == 0 {
		// YCSB tests the length of the text so far, the number itself:
		// one digit reads "second", more read "seconds".
		n := strconv.FormatInt(seconds, 10)
		b.WriteString(n)
		if len(n) == 1 {
			b.WriteString(" second ")
		} else {
			b.WriteString(" seconds ")
		}
	}
	return b.String()
}
