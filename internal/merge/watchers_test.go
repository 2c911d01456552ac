package merge

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/results"
)

// The processes' watchers of one name add up (streams, events, resumes,
// the lag's count), the lag's max is the largest, its percentiles are
// upper bounds and said to be, and a consumer falling behind in one
// process falls behind in the merged result.
func TestMergeAddsWatchers(t *testing.T) {
	sp := newSplit(t, false)
	var paths []string
	for i, p := range sp.json[:2] {
		r, err := results.ReadJSON(p)
		if err != nil {
			t.Fatal(err)
		}
		r.Watchers = []results.Watcher{{Name: "feed", Target: "d.c", Streams: 2, Events: int64(100 * (i + 1)), Resumes: int64(i),
			Lag:           results.WatchLag{Count: int64(100 * (i + 1)), P50: float64(1 + i), P99: float64(10 * (i + 1)), Max: float64(50 * (i + 1))},
			FallingBehind: i == 1, Verdict: map[bool]string{true: "falling behind: ..."}[i == 1]}}
		q := filepath.Join(t.TempDir(), "w.json")
		if err := results.WriteJSON(q, r); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, q)
	}
	got, err := Merge(readAll(t, paths...), tool)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Watchers) != 1 {
		t.Fatalf("watchers %+v, want one", got.Watchers)
	}
	w := got.Watchers[0]
	if w.Streams != 4 || w.Events != 300 || w.Resumes != 1 || w.Lag.Count != 300 || w.Lag.Max != 100 || w.Lag.P99 != 20 || !w.FallingBehind {
		t.Errorf("merged watcher %+v", w)
	}
	if !strings.Contains(strings.Join(got.Notes, "\n"), "watcher feed: the lag percentiles and mean are the largest of its 2 processes'") {
		t.Errorf("notes do not say the percentiles are upper bounds: %v", got.Notes)
	}
}
