package report

import (
	"fmt"
	"io"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
)

// YCSBOptions shape YCSB's end-of-run output (--format ycsb); its status
// lines are sink.NewYCSBStatusSink's.
type YCSBOptions struct {
	// Percentiles are the exported percentiles (hdrhistogram.percentiles);
	// nil means YCSB's 50, 95 and 99.
	Percentiles []float64
}

func (o YCSBOptions) withDefaults() YCSBOptions {
	if o.Percentiles == nil {
		o.Percentiles = []float64{50, 95, 99}
	}
	return o
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
	var sections results.YCSBSections
	for i := range res.Operations {
		op := &res.Operations[i]
		failed := op.Errors
		if _, part := results.YCSBMeasurement(op.Name, op.Parent, types); part {
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
		s, part := sections.Of(op.Name, op.Parent, types)
		s.Add(lat, svc, part)
		s.OK += op.Count
		s.Errs += failed
	}
	for _, s := range sections.List {
		exportHistogram(ew, s.Name, s.Main(), o.Percentiles)
		if s.OK > 0 {
			ew.printf("[%s], Return=OK, %d\n", s.Name, s.OK)
		}
		if s.Errs > 0 {
			ew.printf("[%s], Return=ERROR, %d\n", s.Name, s.Errs)
		}
	}
	for _, s := range sections.List {
		if s.Intended != nil {
			exportHistogram(ew, "Intended-"+s.Name, s.Intended, o.Percentiles)
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
	w.printf("[%s], MaxLatency(us), %d\n", name, metrics.ReportedMax(h))
	for _, p := range percentiles {
		w.printf("[%s], %sPercentileLatency(us), %d\n", name, ordinal(p), min(h.ValueAtPercentile(p), metrics.HighestMicros))
	}
}
