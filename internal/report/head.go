package report

import "github.com/mongoload/mongoload/internal/results"

// workloadText names a workload and, when known, where it came from.
func workloadText(w results.Workload) string {
	if w.Source != "" {
		return w.Name + " (" + w.Source + ")"
	}
	return w.Name
}

// writeHead writes a sweep's or findmax's label/value pairs: aligned for
// the console, or under a "## <title>: <workload> (<label>)" heading as
// a Markdown list.
func writeHead(ew *errWriter, title string, h results.FileHead, lines [][2]string, md bool) {
	if !md {
		for _, l := range lines {
			ew.printf("%-9s %s\n", l[0]+":", l[1])
		}
		return
	}
	title += ": " + h.Workload.Name
	if h.Label != "" {
		title += " (" + h.Label + ")"
	}
	ew.printf("## %s\n\n", title)
	for _, l := range lines {
		ew.printf("- **%s**: %s\n", l[0], mdEscape(l[1]))
	}
}

// writeCalibration writes the calibration's finding, if any, as a
// paragraph of its own.
func writeCalibration(ew *errWriter, c *results.Calibration, md bool) {
	if c == nil {
		return
	}
	if md {
		ew.printf("\n%s\n", mdEscape(CalibrationLine(c)))
		return
	}
	ew.printf("\n%s\n", CalibrationLine(c))
}

// writeNotes writes notes, if any, as a list under "notes:" (console)
// or "Notes:" (Markdown).
func writeNotes(ew *errWriter, notes []string, md bool) {
	if len(notes) == 0 {
		return
	}
	if md {
		ew.printf("\nNotes:\n\n")
		for _, n := range notes {
			ew.printf("- %s\n", mdEscape(n))
		}
		return
	}
	ew.printf("\nnotes:\n")
	for _, n := range notes {
		ew.printf("  - %s\n", n)
	}
}
