package report

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// BatteryRun is one run of a battery as its table shows it, objective by
// objective: the verdict line, the figure alone ("n/a" when the result has
// nothing to judge), whether it met the objective.
type BatteryRun struct {
	Lines, Figures []string
	Met            []bool
}

// Passed says whether the run met every objective.
func (r BatteryRun) Passed() bool {
	for _, m := range r.Met {
		if !m {
			return false
		}
	}
	return true
}

// WriteVerdicts writes one run's verdicts, a line per objective.
func WriteVerdicts(w io.Writer, r BatteryRun) {
	fmt.Fprintln(w, "\nobjectives:")
	for _, l := range r.Lines {
		fmt.Fprintln(w, "  "+l)
	}
}

// WriteBattery writes each run's figure against each objective, the runs'
// verdicts, and whether quorum of them passed.
func WriteBattery(w io.Writer, objectives []string, runs []BatteryRun, quorum int) {
	fmt.Fprintf(w, "\nbattery: %d runs\n", len(runs))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "objective\t")
	for i := range runs {
		fmt.Fprintf(tw, "run %d\t", i+1)
	}
	fmt.Fprintln(tw)
	for j, ob := range objectives {
		fmt.Fprintf(tw, "%s\t", ob)
		for _, r := range runs {
			mark := "ok"
			if !r.Met[j] {
				mark = "MISS"
			}
			fmt.Fprintf(tw, "%s %s\t", r.Figures[j], mark)
		}
		fmt.Fprintln(tw)
	}
	passed := 0
	fmt.Fprint(tw, "verdict\t")
	for _, r := range runs {
		if r.Passed() {
			passed++
			fmt.Fprint(tw, "PASS\t")
		} else {
			fmt.Fprint(tw, "FAIL\t")
		}
	}
	fmt.Fprintln(tw)
	_ = tw.Flush()
	result := "SLA HOLDS"
	if passed < quorum {
		result = "SLA FAILED"
	}
	fmt.Fprintf(w, "%d/%d passed (quorum %d): %s\n", passed, len(runs), quorum, result)
}
