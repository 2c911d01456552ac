package report

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/sink"
)

// YCSBOptions shape YCSB's output (--format ycsb).
type YCSBOptions struct {
	// StatusInterval is the time between status lines (YCSB's
	// status.interval); 0 means YCSB's 10 s.
	StatusInterval time.Duration
	// Operations is the run's operation count, for "est completion in";
	// 0 when the run is limited by time only.
	Operations int64
	// Percentiles are the exported percentiles (hdrhistogram.percentiles);
	// nil means YCSB's 50, 95 and 99.
	Percentiles []float64
	// Location is the time zone of the status lines' clock; nil is local.
	Location *time.Location
	// Types are the operations' types by name (workload.Plan.OpTypes), for
	// the status lines to count a read-modify-write's read and update in
	// READ and UPDATE as YCSB does; the end-of-run sections take them from
	// the result.
	Types map[string]string
}

func (o YCSBOptions) withDefaults() YCSBOptions {
	if o.StatusInterval <= 0 {
		o.StatusInterval = 10 * time.Second
	}
	if o.Percentiles == nil {
		o.Percentiles = []float64{50, 95, 99}
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
func NewYCSBStatusSink(w io.Writer, o YCSBOptions) sink.Sink {
	return &ycsbStatus{w: w, o: o.withDefaults(), next: o.withDefaults().StatusInterval}
}

type ycsbStatus struct {
	w   io.Writer
	o   YCSBOptions
	err error

	sections ycsbSections
	of       []*ycsbSection // each interval operation's section
	isPart   []bool
	total    int64 // operations done, failed ones included
	lastLine int64 // total at the last status line
	span     time.Duration
	next     time.Duration // elapsed time of the next status line
	elapsed  time.Duration
	end      time.Time
}

func (s *ycsbStatus) Name() string { return "YCSB status" }

func (s *ycsbStatus) Interval(iv *metrics.Interval, elapsed time.Duration) {
	if s.of == nil {
		s.of, s.isPart = make([]*ycsbSection, len(iv.Ops)), make([]bool, len(iv.Ops))
		for i := range iv.Ops {
			s.of[i], s.isPart[i] = s.sections.of(iv.Ops[i].Name, iv.Ops[i].Parent, s.o.Types)
		}
	}
	for i := range iv.Ops {
		o, a := &iv.Ops[i], s.of[i]
		n := o.Count() + o.ErrorCount()
		if o.InMix() { // a transaction's steps are parts of one operation
			s.total += n
		}
		a.seen = a.seen || n > 0
		a.add(o.Latency, o.Service, s.isPart[i])
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
	for _, a := range s.sections.list { // the operations, then their intended latencies
		if a.seen {
			b.WriteString(statusSummary(a.name, a.main()))
		}
	}
	for _, a := range s.sections.list {
		if a.seen && a.intended != nil {
			b.WriteString(statusSummary("Intended-"+a.name, a.intended))
		}
	}
	b.WriteByte('\n')
	_, s.err = io.WriteString(s.w, b.String())
	for _, a := range s.sections.list {
		a.reset()
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
		name, h.TotalCount(), hdrMax(h), h.Min(), decimal2(h.Mean()), q[0], q[1], q[2], q[3], q[4])
}

// hdrMax is h's max, 0 when empty (as Java's HdrHistogram reports it).
func hdrMax(h *hdrhistogram.Histogram) int64 {
	if h.TotalCount() == 0 {
		return 0
	}
	return min(h.Max(), metrics.HighestMicros)
}

// WriteYCSB writes the end of a run as YCSB's TextMeasurementsExporter
// does with HDR histograms, so that scripts that parse YCSB's output parse
// mongoload's:
//
//	[OVERALL], RunTime(ms), 60012
//	[OVERALL], Throughput(ops/sec), 8412.317536492701
//	[READ], Operations, 252390
//	[READ], AverageLatency(us), 412.3
//	[READ], MinLatency(us), 121
//	[READ], MaxLatency(us), 30111
//	[READ], 50thPercentileLatency(us), 377
//	[READ], 95thPercentileLatency(us), 701
//	[READ], 99thPercentileLatency(us), 1109
//	[READ], Return=OK, 252390
//	[READ], Return=ERROR, 3
//
// The throughput counts failed operations, as YCSB's does. Operations
// never executed have no section. Open-loop runs add [Intended-NAME]
// sections (latency from the intended start) after the operations', whose
// own sections then hold service times.
func WriteYCSB(w io.Writer, res *results.Result, o YCSBOptions) error {
	o = o.withDefaults()
	ew := &errWriter{w: w}
	runtime := res.EndedAt.Sub(res.StartedAt).Milliseconds()
	if res.DurationSeconds == 0 {
		runtime = 0
	}
	done := res.Totals.Operations + res.Totals.Errors
	ew.printf("[OVERALL], RunTime(ms), %d\n", runtime)
	ew.printf("[OVERALL], Throughput(ops/sec), %s\n", javaDouble(1000*float64(done)/float64(runtime)))
	types := make(map[string]string, len(res.Operations))
	for i := range res.Operations {
		types[res.Operations[i].Name] = res.Operations[i].Type
	}
	var sections ycsbSections
	for i := range res.Operations {
		op := &res.Operations[i]
		failed := op.Errors
		if _, part := ycsbMeasurement(op.Name, op.Parent, types); part {
			failed = op.FailedAttempts() // its read-modify-write holds the error
		}
		if op.Count+failed == 0 {
			continue
		}
		lat, err := op.LatencyHistogram()
		if err != nil {
			return fmt.Errorf("%s: %w", op.Name, err)
		}
		svc, err := op.ServiceTimeHistogram()
		if err != nil {
			return fmt.Errorf("%s: %w", op.Name, err)
		}
		s, part := sections.of(op.Name, op.Parent, types)
		s.add(lat, svc, part)
		s.ok += op.Count
		s.errs += failed
	}
	for _, s := range sections.list {
		exportHistogram(ew, s.name, s.main(), o.Percentiles)
		if s.ok > 0 {
			ew.printf("[%s], Return=OK, %d\n", s.name, s.ok)
		}
		if s.errs > 0 {
			ew.printf("[%s], Return=ERROR, %d\n", s.name, s.errs)
		}
	}
	for _, s := range sections.list {
		if s.intended != nil {
			exportHistogram(ew, "Intended-"+s.name, s.intended, o.Percentiles)
		}
	}
	return ew.err
}

// exportHistogram writes one measurement's lines, as
// OneMeasurementHdrHistogram.exportMeasurements does.
func exportHistogram(w *errWriter, name string, h *hdrhistogram.Histogram, percentiles []float64) {
	w.printf("[%s], Operations, %d\n", name, h.TotalCount())
	w.printf("[%s], AverageLatency(us), %s\n", name, javaDouble(h.Mean()))
	w.printf("[%s], MinLatency(us), %d\n", name, h.Min())
	w.printf("[%s], MaxLatency(us), %d\n", name, hdrMax(h))
	for _, p := range percentiles {
		w.printf("[%s], %sPercentileLatency(us), %d\n", name, ordinal(p), min(h.ValueAtPercentile(p), metrics.HighestMicros))
	}
}
