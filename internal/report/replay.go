package report

import (
	"fmt"
	"io"

	"github.com/mongoload/mongoload/internal/results"
)

// WriteReplay prints a replay's own lines after the run's report.
func WriteReplay(w io.Writer, rp *results.Replay) {
	if rp == nil {
		return
	}
	fmt.Fprintf(w, "\nreplay of %s at speed %s: %d operations sent per pass (of %d in the trace), captured over %.2fs", rp.Trace, rp.Speed, rp.Sent, rp.Entries, rp.CapturedSeconds)
	if rp.ScheduledSeconds > 0 {
		fmt.Fprintf(w, ", scheduled over %.2fs", rp.ScheduledSeconds)
	}
	fmt.Fprintln(w)
	if l := rp.SendLag; l != nil {
		fmt.Fprintf(w, "  send lag behind the schedule: p50 %.2f ms, p90 %.2f, p99 %.2f, max %.2f; %d sent more than %.0f ms late, %d dropped\n",
			l.P50, l.P90, l.P99, l.Max, rp.Late, rp.LateAfterMs, rp.Dropped)
	}
	if !rp.Complete {
		fmt.Fprintln(w, "  coverage: a sample of the application's operations: "+rp.Coverage)
	}
	if rp.Behind != "" {
		fmt.Fprintln(w, "  "+rp.Behind)
	}
}
