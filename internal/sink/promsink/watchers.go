package promsink

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/mongoload/mongoload/internal/results"
)

// watcherState is one change-stream watcher as /metrics serves it: its
// events so far and the last interval's lag. Watchers are no operations,
// so they have metrics of their own, never operations_total's.
type watcherState struct {
	events        uint64
	p50, p99, max float64 // seconds, the last interval with events
	seen          bool
}

var (
	dWatchEvents = prometheus.NewDesc("mongoload_watcher_events_total",
		"Change events received by a watcher's streams (each stream counts each event it received).", []string{"watcher"}, nil)
	dWatchLag = prometheus.NewDesc("mongoload_watcher_lag_seconds",
		"A watcher's delivery lag over the last interval with events, from the commit (or its lag field) to receipt: quantile 0.5, 0.99 and 1 (the max).", []string{"watcher", "quantile"}, nil)
)

// addWatchers accumulates one interval's watchers; the caller holds c.mu.
func (c *collector) addWatchers(ws []results.WatcherInterval) {
	if c.watchers == nil && len(ws) > 0 {
		c.watchers = map[string]*watcherState{}
	}
	for _, w := range ws {
		s := c.watchers[w.Name]
		if s == nil {
			s = &watcherState{}
			c.watchers[w.Name] = s
			c.watcherOrder = append(c.watcherOrder, w.Name)
		}
		s.events += uint64(max(w.Events, 0))
		if w.Events > 0 {
			s.p50, s.p99, s.max, s.seen = w.LagP50/1000, w.LagP99/1000, w.LagMax/1000, true
		}
	}
}

// collectWatchers sends the watchers' metrics; the caller holds c.mu.
func (c *collector) collectWatchers(ch chan<- prometheus.Metric) {
	for _, name := range c.watcherOrder {
		s := c.watchers[name]
		ch <- prometheus.MustNewConstMetric(dWatchEvents, prometheus.CounterValue, float64(s.events), name)
		if !s.seen {
			continue
		}
		ch <- prometheus.MustNewConstMetric(dWatchLag, prometheus.GaugeValue, s.p50, name, "0.5")
		ch <- prometheus.MustNewConstMetric(dWatchLag, prometheus.GaugeValue, s.p99, name, "0.99")
		ch <- prometheus.MustNewConstMetric(dWatchLag, prometheus.GaugeValue, s.max, name, "1")
	}
}
