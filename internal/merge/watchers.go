package merge

import (
	"fmt"

	"github.com/mongoload/mongoload/internal/results"
)

// mergeWatchers adds the processes' watchers of the same name: each
// process held its own streams, so streams, events, resumes and the
// events after the end add up, events per second over the merged phase;
// the lag's count adds up and its max is the largest, while p50 ... p99.9
// and the mean are upper bounds (the largest of the processes'): results
// files keep no lag histograms. A watcher falling behind in one process
// falls behind in the merged result.
func mergeWatchers(srcs []*Source, seconds float64) ([]results.Watcher, []string) {
	var out []results.Watcher
	at := map[string]int{}
	processes := map[string]int{}
	for _, s := range srcs {
		if s.Result == nil {
			continue
		}
		for _, w := range s.Result.Watchers {
			i, ok := at[w.Name]
			if !ok {
				at[w.Name] = len(out)
				out = append(out, w)
				processes[w.Name] = 1
				continue
			}
			processes[w.Name]++
			m := &out[i]
			m.Streams += w.Streams
			m.Events += w.Events
			m.Resumes += w.Resumes
			m.AfterEnd += w.AfterEnd
			m.Undrained = m.Undrained || w.Undrained
			if w.FallingBehind && !m.FallingBehind {
				m.FallingBehind, m.Verdict = true, w.Verdict
			}
			l, o := &m.Lag, w.Lag
			l.Count += o.Count
			l.Negative += o.Negative
			l.P50, l.P95, l.P99, l.P999 = max(l.P50, o.P50), max(l.P95, o.P95), max(l.P99, o.P99), max(l.P999, o.P999)
			l.Max, l.Mean = max(l.Max, o.Max), max(l.Mean, o.Mean)
		}
	}
	var notes []string
	for i := range out {
		if seconds > 0 {
			out[i].EventsPerSecond = float64(out[i].Events) / seconds
		}
		if n := processes[out[i].Name]; n > 1 {
			notes = append(notes, fmt.Sprintf("watcher %s: the lag percentiles and mean are the largest of its %d processes' (upper bounds: results files keep no lag histograms); its count, max and events are exact", out[i].Name, n))
		}
	}
	return out, notes
}
