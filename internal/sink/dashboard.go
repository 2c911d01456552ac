package sink

import (
	"github.com/mongoload/mongoload/internal/dashboard"
	"github.com/mongoload/mongoload/internal/results"
)

// Dashboard begins a measured run on the dashboard d and returns the
// sink that feeds it to the page: one snapshot per interval, the result at
// Close.
func Dashboard(d *dashboard.Server, r dashboard.Run) Sink {
	return &dashboardSink{d: d, step: d.StartRun(r), nominal: r.Interval.Seconds()}
}

type dashboardSink struct {
	d       *dashboard.Server
	step    int
	nominal float64 // the run's interval, in seconds
}

func (k *dashboardSink) Name() string { return "dashboard" }

func (k *dashboardSink) Interval(s *Snapshot) {
	k.d.RunInterval(k.step, k.nominal, s.Interval, s.Summary)
}

func (k *dashboardSink) Close(res *results.Result) error {
	k.d.EndRun(k.step, res)
	return nil
}
