package cli

import (
	"fmt"

	"github.com/mongoload/mongoload/internal/capture"
)

// compareCaptures sets a replay's capture beside the source's:
// mongoload capture --compare source.yaml replay.yaml. The replay's file
// is a capture of the server the source's workload ran against, with its
// profiler on (docs/capture.md, "Fidelity").
func compareCaptures(args []string, o IO) error {
	if len(args) != 2 {
		return withCode(ExitUsage, fmt.Errorf("--compare takes two captures: SOURCE.yaml REPLAY.yaml"))
	}
	var got [2]map[string]capture.Captured
	for i, p := range args {
		c, err := capture.ReadCaptured(p)
		if err != nil {
			return withCode(ExitUnreadable, err)
		}
		got[i] = c
	}
	worst, off := capture.Compare(o.Stdout, got[0], got[1])
	fmt.Fprintf(o.Stdout, "largest difference in share: %.1f points; shapes whose documents returned differ by more than 2x: %d\n", worst, len(off))
	return nil
}
