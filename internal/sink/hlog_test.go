package sink

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/results/resultstest"
)

// nopCloser makes a bytes.Buffer an io.WriteCloser that records Close.
type nopCloser struct {
	bytes.Buffer
	closed bool
}

func (b *nopCloser) Close() error { b.closed = true; return nil }

// hlogIntervals records three intervals of an open-loop run (response and
// service times) with a heavy tail, starting 250 ms after a whole second.
func hlogIntervals(t *testing.T) (ops []string, ivs []*metrics.Interval, start time.Time) {
	t.Helper()
	ops = []string{"find by id", "update,seats"} // tags cannot hold spaces or commas
	rng := rand.New(rand.NewPCG(7, 8))
	r := metrics.NewRecorder(ops, metrics.Options{Shards: 3, Service: true})
	start = resultstest.T0.Add(250 * time.Millisecond)
	r.Reset(start)
	for sec := 1; sec <= 3; sec++ {
		for i := range 5000 {
			op := rng.IntN(len(ops))
			svc := time.Duration(rng.ExpFloat64()*1e6) + 50*time.Microsecond
			r.Shard(i).RecordService(op, svc+time.Duration(rng.IntN(3000))*time.Microsecond, svc)
		}
		ivs = append(ivs, r.Interval(start.Add(time.Duration(sec)*time.Second)))
	}
	return ops, ivs, start
}

// TestHlogRoundTrip protects the interval log's promise: HdrHistogram's own
// reader gets back every interval histogram of every operation, tagged,
// with the exact counts and percentiles, and at the right times.
func TestHlogRoundTrip(t *testing.T) {
	ops, ivs, start := hlogIntervals(t)
	var buf nopCloser
	s := NewHlogSink(&buf, "test log")
	for _, iv := range ivs {
		s.Interval(&Snapshot{Interval: iv, Elapsed: iv.End.Sub(start)})
	}
	if err := s.Close(nil); err != nil || !buf.closed {
		t.Fatalf("Close: %v, closed %v", err, buf.closed)
	}
	text := buf.String()
	for _, want := range []string{"#[Histogram log format version 1.3]", "#[StartTime: 1767366245 ", "#[BaseTime: 1767366245 ", `"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"`} {
		if !strings.Contains(text, want) {
			t.Errorf("log lacks %q:\n%s", want, text[:min(len(text), 600)])
		}
	}

	rd := hdrhistogram.NewHistogramLogReader(strings.NewReader(text))
	var got []*hdrhistogram.Histogram
	for {
		h, err := rd.NextIntervalHistogram()
		if err != nil {
			t.Fatal(err)
		}
		if h == nil {
			break
		}
		got = append(got, h)
	}
	if len(got) != len(ivs)*len(ops)*2 {
		t.Fatalf("read %d histograms, want %d", len(got), len(ivs)*len(ops)*2)
	}
	n := 0
	for _, iv := range ivs {
		for i, name := range ops {
			for _, kind := range []struct {
				suffix string
				h      *hdrhistogram.Histogram
			}{{"", iv.Ops[i].Latency}, {results.ServiceTagSuffix, iv.Ops[i].Service}} {
				h := got[n]
				n++
				if want := results.HlogTag(name) + kind.suffix; h.Tag() != want {
					t.Fatalf("histogram %d has tag %q, want %q", n, h.Tag(), want)
				}
				if h.TotalCount() != kind.h.TotalCount() || !h.Equals(kind.h) {
					t.Errorf("%s: count %d, want %d; equal %v", h.Tag(), h.TotalCount(), kind.h.TotalCount(), h.Equals(kind.h))
				}
				for _, q := range []float64{50, 90, 99, 99.9, 100} {
					if g, w := h.ValueAtQuantile(q), kind.h.ValueAtQuantile(q); g != w {
						t.Errorf("%s: p%v = %d, want %d", h.Tag(), q, g, w)
					}
				}
				// Timestamps are to the millisecond; the reader's float
				// arithmetic may lose one.
				if d := h.StartTimeMs() - iv.Start.UnixMilli(); d < -1 || d > 0 {
					t.Errorf("%s: start %d ms, want %d", h.Tag(), h.StartTimeMs(), iv.Start.UnixMilli())
				}
				if d := h.EndTimeMs() - iv.End.UnixMilli(); d < -1 || d > 0 {
					t.Errorf("%s: end %d ms, want %d", h.Tag(), h.EndTimeMs(), iv.End.UnixMilli())
				}
			}
		}
	}
}

// TestHlogTag protects readers of the log from tags the format cannot hold.
func TestHlogTag(t *testing.T) {
	tests := []struct{ in, want string }{
		{"find_by_id", "find_by_id"},     // the usual name is unchanged
		{"find by id", "find_by_id"},     // spaces end a tag
		{"a,b\tc\r\nd", "a_b_c__d"},      // commas and line breaks too
		{"zone=eu.find", "zone=eu.find"}, // other punctuation is allowed
		{"", ""},                         // no name, no tag
	}
	for _, tt := range tests {
		if got := results.HlogTag(tt.in); got != tt.want {
			t.Errorf("HlogTag(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestHlogEmptyRun: a run that measured nothing still leaves a log that the
// reader accepts, with no intervals.
func TestHlogEmptyRun(t *testing.T) {
	var buf nopCloser
	if err := NewHlogSink(&buf, "x").Close(nil); err != nil {
		t.Fatal(err)
	}
	h, err := hdrhistogram.NewHistogramLogReader(&buf.Buffer).NextIntervalHistogram()
	if err != nil || h != nil {
		t.Errorf("empty log read as %v, %v", h, err)
	}
}

// failingCloser fails every write, as a full disk would.
type failingCloser struct{ closed bool }

func (f *failingCloser) Write([]byte) (int, error) { return 0, errors.New("disk full") }
func (f *failingCloser) Close() error              { f.closed = true; return nil }

// TestHlogWriteError: a write error is reported on Close, the file is still
// closed, and the sink does not keep trying.
func TestHlogWriteError(t *testing.T) {
	_, ivs, start := hlogIntervals(t)
	w := &failingCloser{}
	s := NewHlogSink(w, "x")
	for _, iv := range ivs {
		s.Interval(&Snapshot{Interval: iv, Elapsed: iv.End.Sub(start)})
	}
	if err := s.Close(nil); err == nil || !strings.Contains(err.Error(), "disk full") || !w.closed {
		t.Errorf("Close = %v, closed %v; want the write error and a closed file", err, w.closed)
	}
}

var _ io.WriteCloser = (*nopCloser)(nil)
