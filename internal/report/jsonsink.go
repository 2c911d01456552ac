package report

import (
	"time"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/sink"
)

// NewJSONSink returns a sink that collects the interval series and, on
// Close, writes the result with that series to path (replacing any series
// the result had). If Close gets no result because the run failed, it still
// writes one, built from info and the intervals it received, so a crashed
// run leaves its measurements behind.
func NewJSONSink(path string, info results.RunInfo) sink.Sink {
	return &jsonSink{path: path, info: info, series: []results.IntervalSummary{}}
}

type jsonSink struct {
	path   string
	info   results.RunInfo
	series []results.IntervalSummary
	// totals are the run's whole-run totals (Interval.RunTotals), read only
	// by a Close without a result, once the run is over: the sink merges no
	// histogram of its own.
	totals *metrics.Totals
}

func (s *jsonSink) Name() string { return "JSON results file " + s.path }

func (s *jsonSink) Interval(iv *metrics.Interval, elapsed time.Duration) {
	s.series = append(s.series, results.Summarize(iv, elapsed))
	s.totals = iv.RunTotals
}

func (s *jsonSink) Close(res *results.Result) error {
	if res == nil {
		totals := s.totals
		if totals == nil {
			totals = metrics.NewTotals(nil, false)
		}
		res = results.Build(s.info, totals, nil)
		res.Notes = append(res.Notes, "the run ended without a result: this one was built from the intervals the results file received")
	}
	// A shallow copy: res is shared with other sinks, which must not see
	// this sink's series appear under them.
	out := *res
	out.Intervals = s.series
	return results.WriteJSON(s.path, &out)
}
