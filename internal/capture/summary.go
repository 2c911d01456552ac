package capture

import (
	"fmt"
	"io"
	"math"
)

// Summary prints what was captured: sources, shapes and shares, what was
// folded or skipped and why, and the rate.
func (w *Workload) Summary(out io.Writer, file string) {
	for _, h := range w.Header[1:] {
		fmt.Fprintln(out, h)
	}
	fmt.Fprintf(out, "%-40s %8s %12s %10s\n", "operation", "share", "executions", "returned")
	for i, sh := range w.Kept {
		fmt.Fprintf(out, "%-40s %7.1f%% %12s %10.2f\n", w.Config.Operations[i].Name, w.Shares[i]*100, count(sh.Count), sh.Returned/math.Max(1, sh.Count))
	}
	if file != "" && file != "." {
		fmt.Fprintf(out, "wrote %s: %d operations, %d collections\n", file, len(w.Config.Operations), len(w.Config.Collections))
	}
}
