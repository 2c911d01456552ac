package promsink

import (
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/sink"
)

// Watchers have metrics of their own, never the operations': their events
// add up over the intervals, their lag is the last interval's with events
// (in seconds), and operations_total counts no event.
func TestExporterServesWatchers(t *testing.T) {
	e, err := Listen(Options{Addr: "127.0.0.1:0", Ops: []Op{{"add", "insertOne"}}, Workload: "w", Version: "test", Load: "closed"})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(nil)
	r := metrics.NewRecorder([]string{"add"}, metrics.Options{Shards: 1})
	start := time.Now()
	r.Reset(start)
	for sec, ws := range [][]results.WatcherInterval{
		{{Name: "feed", Events: 300, LagP50: 2, LagP99: 40, LagMax: 90}},
		{{Name: "feed", Events: 0}}, // a quiet interval keeps the last lag
	} {
		iv := r.Interval(start.Add(time.Duration(sec+1) * time.Second))
		snap := sink.NewSnapshot(iv, time.Duration(sec+1)*time.Second)
		snap.Summary.Watchers = ws
		e.Interval(snap)
	}
	fams := Scrape(t, "http://"+e.Addr()+"/metrics")
	feed := map[string]string{"watcher": "feed"}
	if m := Labelled(fams, "mongoload_watcher_events_total", feed); m == nil || m.Counter.GetValue() != 300 {
		t.Errorf("watcher events %v, want 300", m)
	}
	for q, want := range map[string]float64{"0.5": 0.002, "0.99": 0.040, "1": 0.090} {
		if m := Labelled(fams, "mongoload_watcher_lag_seconds", map[string]string{"watcher": "feed", "quantile": q}); m == nil || m.Gauge.GetValue() != want {
			t.Errorf("lag quantile %s: %v, want %v", q, m, want)
		}
	}
	if m := Labelled(fams, "mongoload_operations_total", map[string]string{"operation": "add"}); m == nil || m.Counter.GetValue() != 0 {
		t.Errorf("operations_total %v: the watcher's events are no operations", m)
	}
}
