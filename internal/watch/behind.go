package watch

import (
	"fmt"
	"slices"
)

// A consumer falls behind when it receives events more slowly than they
// are written: each event then waits longer than the last, and its lag
// grows through the run instead of staying level. A pause of the server
// raises the lag for a moment and lets it fall back; only growth that
// holds to the end counts.
const (
	// behindFactor and behindMs: the last quarter's median lag is at least
	// behindFactor times the first quarter's and behindMs more.
	behindFactor = 2.0
	behindMs     = 200.0
	// minTrend is the fewest intervals with events the trend is judged on.
	minTrend = 4
	// endBacklogMs: events still waiting this long when the run ended
	// mean a backlog the consumer had not worked off.
	endBacklogMs = 1000.0
)

// judge says whether a watcher fell behind: from its per-interval median
// lags (trend), whether it had caught up when the wait after the run
// ended (undrained), and the largest lag among the events received after
// the end (endMax, ms).
func judge(trend []float64, undrained bool, endMax float64) (bool, string) {
	if undrained {
		return true, fmt.Sprintf("falling behind: its streams had not delivered the run's writes %s after the run ended", DrainLimit)
	}
	if len(trend) >= minTrend {
		q := max(1, len(trend)/4)
		first, last := median(trend[:q]), median(trend[len(trend)-q:])
		if last >= behindFactor*first && last-first >= behindMs {
			return true, fmt.Sprintf("falling behind: its median lag grew from %s in the first quarter of the run to %s in the last", fmtMs(first), fmtMs(last))
		}
	}
	if endMax >= endBacklogMs {
		return true, fmt.Sprintf("falling behind: events written during the run were still %s late when it ended", fmtMs(endMax))
	}
	return false, ""
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func fmtMs(v float64) string {
	if v >= 1000 {
		return fmt.Sprintf("%.1f s", v/1000)
	}
	return fmt.Sprintf("%.0f ms", v)
}
