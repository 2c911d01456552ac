package report

import (
	"time"

	"github.com/mongoload/mongoload/internal/metrics"
)

// NewJSONSink returns a sink that collects the interval series and, on
// Close, writes the result with that series to path (replacing any series
// the result had). If Close gets no result because the run failed, it still
// writes one, built from info and the intervals it received, so a crashed
// run leaves its measurements behind.
func NewJSONSink(path string, info RunInfo) Sink {
	return &jsonSink{path: path, info: info, series: []IntervalSummary{}}
}

type jsonSink struct {
	path   string
	info   RunInfo
	series []IntervalSummary
	totals *metrics.Totals // only for a Close without a result
}

func (s *jsonSink) Name() string { return "JSON results file " + s.path }

func (s *jsonSink) Interval(iv *metrics.Interval, elapsed time.Duration) {
	s.series = append(s.series, Summarize(iv, elapsed))
	if s.totals == nil {
		names := make([]string, len(iv.Ops))
		for i := range iv.Ops {
			names[i] = iv.Ops[i].Name
		}
		s.totals = metrics.NewTotals(names, len(iv.Ops) > 0 && iv.Ops[0].Service != nil)
	}
	s.totals.Add(iv)
}

func (s *jsonSink) Close(res *Result) error {
	if res == nil {
		res = Build(s.info, s.totals, nil)
		res.Notes = append(res.Notes, "the run ended without a result: this one was built from the intervals the results file received")
	}
	// A shallow copy: res is shared with other sinks, which must not see
	// this sink's series appear under them.
	out := *res
	out.Intervals = s.series
	return WriteJSON(s.path, &out)
}
