package report

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/mongoload/mongoload/internal/results"
)

// writeFaults prints the faults section of the console report.
func writeFaults(w *errWriter, res *results.Result) {
	f := res.Faults
	if f == nil {
		return
	}
	w.printf("\nfaults:   %s operation(s) lost (%s errors, %s abandoned in flight)\n",
		results.Thousands(f.Lost), results.Thousands(f.Lost-f.Abandoned), results.Thousands(f.Abandoned))
	if r := f.Retried; r != nil {
		w.printf("  retried by the driver and then successful: %s read(s), %s write(s)\n", results.Thousands(r.Reads), results.Thousands(r.Writes))
	}
	for i, g := range f.Gaps {
		line := "  gap " + strconv.Itoa(i+1) + ": no operation succeeded from " + secs(g.Start) + " to " + secs(g.End) + " (" + secs(g.Seconds) + ")"
		if g.Flaps > 0 {
			line = "  gap " + strconv.Itoa(i+1) + ": operations failed from " + secs(g.Start) + " to " + secs(g.End) + " (" + secs(g.Seconds) + ", " + strconv.Itoa(g.Flaps) + " brief recoveries)"
		}
		switch {
		case g.Open:
			line += ", still failing when the run ended"
		case g.RecoverySeconds != nil:
			line += ", throughput back to 90% of before " + secs(*g.RecoverySeconds) + " after"
		default:
			line += ", throughput never back to 90% of before"
		}
		w.printf("%s\n", line)
	}
	for _, in := range f.Injected {
		line := "  fault " + in.Planned + ": " + in.Outcome
		if in.Outcome == "done" {
			line += " at " + secs(in.At)
		}
		if in.Error != "" {
			line += " (" + in.Error + ")"
		}
		w.printf("%s\n", line)
	}
	if len(f.Timeline) == 0 {
		return
	}
	// One line per class: its count at each interval's end time.
	perClass := map[string][]string{}
	for _, iv := range f.Timeline {
		for c, n := range iv.ErrorsByClass {
			perClass[c] = append(perClass[c], secs(iv.T)+":"+results.Thousands(n))
		}
	}
	w.printf("  errors per class (interval end: count)\n")
	for _, c := range slices.Sorted(maps.Keys(perClass)) {
		w.printf("    %-28s %s\n", c, strings.Join(perClass[c], " "))
	}
}

func secs(s float64) string { return strconv.FormatFloat(s, 'f', -1, 64) + "s" }
