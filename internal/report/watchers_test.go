package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/results"
)

// The console shows each watcher apart from the operations (whose TOTAL
// it never joins), its figures as recorded, and says in words when a
// consumer fell behind.
func TestConsoleShowsWatchers(t *testing.T) {
	res, _, _ := docsResult(t, 0)
	total := res.Totals.Operations
	res.Watchers = []results.Watcher{
		{Name: "cache", Target: "shop.orders", Streams: 3, Events: 4500, EventsPerSecond: 150, Lag: results.WatchLag{Count: 4500, P50: 1.5, P99: 8, Max: 55.25}},
		{Name: "sync", Target: "shop", Streams: 1, Events: 900, Resumes: 2, FallingBehind: true,
			Verdict: "falling behind: its median lag grew from 5 ms in the first quarter of the run to 2.5 s in the last"},
	}
	var b bytes.Buffer
	if err := WriteConsole(&b, res); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"watchers (change streams",
		"FALLING BEHIND",
		"watcher sync: falling behind: its median lag grew from 5 ms",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the console lacks %q:\n%s", want, out)
		}
	}
	row := ""
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] == "cache" {
			row = strings.Join(f, " ")
		}
	}
	if want := "cache shop.orders 3 4,500 150.0 1.500 8.000 55.250 0 kept up"; row != want {
		t.Errorf("the watcher's row is %q, want %q", row, want)
	}
	if res.Totals.Operations != total {
		t.Errorf("totals moved: %d, was %d", res.Totals.Operations, total)
	}
}
