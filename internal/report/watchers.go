package report

import (
	"fmt"

	"github.com/mongoload/mongoload/internal/results"
)

// WatcherHead and WatcherRows are the watchers' table: the console's and
// the HTML report's. Lag in ms, from the commit (or the lag field) to the
// event's receipt.
var WatcherHead = []string{"watcher", "target", "streams", "events", "events/s", "lag p50", "p99", "max", "resumes", "state"}

// WatcherRows is one row per watcher of res, nil when it has none.
func WatcherRows(res *results.Result) [][]string {
	var rows [][]string
	for _, w := range res.Watchers {
		flag := "kept up"
		switch {
		case w.Failed != "":
			flag = "FAILED"
		case w.FallingBehind:
			flag = "FALLING BEHIND"
		case w.Undrained:
			flag = "undrained"
		}
		rows = append(rows, []string{w.Name, w.Target, fmt.Sprint(w.Streams), results.Thousands(w.Events),
			fmt.Sprintf("%.1f", w.EventsPerSecond), ms3(w.Lag.P50), ms3(w.Lag.P99), ms3(w.Lag.Max),
			results.Thousands(w.Resumes), flag})
	}
	return rows
}

// writeWatchers writes the watchers' table and each verdict: watchers are
// no operations, so they stand apart from the operations' tables.
func writeWatchers(w *errWriter, res *results.Result) {
	rows := WatcherRows(res)
	if rows == nil {
		return
	}
	w.printf("\nwatchers (change streams; not operations: in no total or SLO of theirs; lag ms from the commit to receipt):\n")
	t := &table{}
	t.add(WatcherHead...)
	for _, r := range rows {
		t.add(r...)
	}
	t.write(w, "")
	for _, x := range res.Watchers {
		if x.Verdict != "" {
			w.printf("watcher %s: %s\n", x.Name, x.Verdict)
		}
	}
}
