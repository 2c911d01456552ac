package sink

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
)

// CreateHlog creates (or truncates) path now, so that an unwritable path
// fails before the run rather than after it, and returns a sink writing the
// run's intervals to it with NewHlogSink.
func CreateHlog(path string) (Sink, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("interval log %q: %w", path, err)
	}
	return NewHlogSink(f, "interval log "+path), nil
}

// NewHlogSink returns a sink that writes every interval to w in
// HdrHistogram's interval log format (.hlog, log format version 1.3), as
// Java's HistogramLogWriter does, so HistogramLogReader and
// HistogramLogProcessor read it: one line per operation and interval, tagged
// with the operation's name (HlogTag), plus NAME.service lines when the run
// records service times. Values are microseconds; the Interval_Max column is
// in milliseconds. Timestamps are relative to the BaseTime header, the whole
// second at or before the measured phase's start.
//
// Each interval is flushed as it is written, so a run that dies leaves a
// readable log of what it measured. Close closes w and returns the first
// error met.
func NewHlogSink(w io.WriteCloser, name string) Sink {
	return &hlogSink{name: name, c: w, w: bufio.NewWriter(w)}
}

type hlogSink struct {
	name   string
	c      io.Closer
	w      *bufio.Writer
	lw     *hdrhistogram.HistogramLogWriter
	baseMs int64
	err    error
}

func (s *hlogSink) Name() string { return s.name }

func (s *hlogSink) Interval(snap *Snapshot) {
	if s.err != nil {
		return
	}
	iv := snap.Interval
	if s.lw == nil {
		s.header(iv.End.Add(-snap.Elapsed))
	}
	for i := range iv.Ops {
		o := &iv.Ops[i]
		tag := results.HlogTag(o.Name)
		s.line(tag, o.Latency)
		if o.Service != nil {
			s.line(tag+results.ServiceTagSuffix, o.Service)
		}
	}
	if s.err == nil {
		s.err = s.w.Flush()
	}
}

// header writes the lines Java's HistogramLogWriter writes before the first
// interval: the format version, a comment, StartTime, BaseTime, the legend.
func (s *hlogSink) header(start time.Time) {
	s.lw = hdrhistogram.NewHistogramLogWriter(s.w)
	startMs := start.UnixMilli()
	// BaseTime is written in whole seconds, so only a whole second can be
	// the base that readers add back to each timestamp.
	s.baseMs = startMs - startMs%1000
	s.lw.SetBaseTime(s.baseMs)
	s.check(s.lw.OutputLogFormatVersion())
	s.check(s.lw.OutputComment("[mongoload interval log: values in microseconds, Interval_Max in milliseconds; tag NAME is an operation's latency, NAME" + results.ServiceTagSuffix + " its service time]"))
	s.check(s.lw.OutputStartTime(startMs))
	s.check(s.lw.OutputBaseTime(s.baseMs))
	s.check(s.lw.OutputLegend())
}

// line writes one tagged interval histogram. It formats the line itself
// rather than through HistogramLogWriter.OutputIntervalHistogram, which
// needs the tag set on the histogram (intervals are shared read-only with
// other sinks) and scales Interval_Max for nanosecond values.
func (s *hlogSink) line(tag string, h *hdrhistogram.Histogram) {
	if s.err != nil {
		return
	}
	enc, err := metrics.EncodeHistogram(h)
	if err != nil {
		s.err = err
		return
	}
	start := float64(h.StartTimeMs()-s.baseMs) / 1000
	length := float64(h.EndTimeMs()-h.StartTimeMs()) / 1000
	var maxMs float64
	if h.TotalCount() > 0 {
		maxMs = float64(h.Max()) / 1000
	}
	_, err = fmt.Fprintf(s.w, "Tag=%s,%.3f,%.3f,%.3f,%s\n", tag, start, length, maxMs, enc)
	s.check(err)
}

func (s *hlogSink) check(err error) {
	if s.err == nil && err != nil {
		s.err = err
	}
}

func (s *hlogSink) Close(*results.Result) error {
	if s.lw == nil && s.err == nil {
		// Nothing was measured: still leave a valid, empty log.
		s.lw = hdrhistogram.NewHistogramLogWriter(s.w)
		s.check(s.lw.OutputLogFormatVersion())
		s.check(s.lw.OutputLegend())
	}
	s.check(s.w.Flush())
	s.check(s.c.Close())
	return s.err
}
