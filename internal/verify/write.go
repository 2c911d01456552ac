package verify

import (
	"fmt"
	"io"
)

// Write prints one line per invariant of f on w, PASS or FAIL with its
// numbers and examples, and returns the broken ones' names and how many
// were checked.
func Write(w io.Writer, name, database, hosts string, f *Figures) (failed []string, checked int) {
	checks := f.Checks()
	how := "one snapshot"
	if !f.Snapshot {
		how = "no snapshot: run it after the run has ended"
	}
	fmt.Fprintf(w, "verify %s: database %s at %s (%s)\n", name, database, hosts, how)
	if f.History > 0 {
		fmt.Fprintf(w, "  %s seeded history records in the ledger are not compared\n", Num(f.History))
	}
	for _, c := range checks {
		verdict := "PASS"
		if !c.OK {
			verdict = "FAIL"
			failed = append(failed, c.Name)
		}
		fmt.Fprintf(w, "  %s  %-29s %s\n", verdict, c.Name, c.Detail)
		if !c.OK {
			for _, ex := range c.Examples {
				fmt.Fprintf(w, "        %s\n", ex)
			}
		}
	}
	if len(failed) == 0 {
		fmt.Fprintf(w, "all %d invariants hold\n", len(checks))
	}
	return failed, len(checks)
}
