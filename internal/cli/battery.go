package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/mongoload/mongoload/internal/analysis"
	"github.com/mongoload/mongoload/internal/capacity"
	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/run"
	"github.com/mongoload/mongoload/internal/sink"
)

// battery runs the measured phase --repeat times (capacity.Battery), prints
// each run's verdicts and the battery's table, and exits ExitSLA when too
// few runs met every objective, so the command can gate a CI pipeline.
func battery(ctx context.Context, o IO, cfg *config.Config, sess *run.Session, out output) error {
	objectives, _ := analysis.ParseObjectives(cfg.Run.SLO) // validated already
	measure := func(ctx context.Context, c *config.Config, sinks ...sink.Sink) (*run.Result, error) {
		r, err := out.measure(ctx, o, sess, c, o.Stdout, sinks...)
		if err == nil {
			err = keepHistory(o, c.Run.History, r.Result)
		}
		return r, err
	}
	runs, err := capacity.Battery(ctx, cfg, measure, o.Stderr, func(r capacity.BatteryRun) {
		if len(objectives) > 0 {
			writeVerdicts(o.Stdout, r.Verdicts)
		}
	})
	if max(cfg.Run.Repeat, 1) > 1 && len(runs) > 0 && len(objectives) > 0 {
		writeBattery(o.Stdout, objectives, runs, capacity.Quorum(cfg))
	}
	return err
}

func writeVerdicts(w io.Writer, vs []analysis.Verdict) {
	fmt.Fprintln(w, "\nobjectives:")
	for _, v := range vs {
		fmt.Fprintln(w, "  "+v.String())
	}
}

// writeBattery prints each run's figure against each objective, and the verdict.
func writeBattery(w io.Writer, objectives []analysis.Objective, runs []capacity.BatteryRun, quorum int) {
	fmt.Fprintf(w, "\nbattery: %d runs\n", len(runs))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "objective\t")
	for i := range runs {
		fmt.Fprintf(tw, "run %d\t", i+1)
	}
	fmt.Fprintln(tw)
	for j, ob := range objectives {
		fmt.Fprintf(tw, "%s\t", ob.Text)
		for _, r := range runs {
			v := r.Verdicts[j]
			mark := "ok"
			if !v.Pass {
				mark = "MISS"
			}
			fmt.Fprintf(tw, "%s %s\t", formatMeasured(v), mark)
		}
		fmt.Fprintln(tw)
	}
	passed := 0
	fmt.Fprint(tw, "verdict\t")
	for _, r := range runs {
		if analysis.Passed(r.Verdicts) {
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

func formatMeasured(v analysis.Verdict) string {
	if v.Missing {
		return "n/a"
	}
	s := v.String()
	if i := strings.Index(s, "measured "); i >= 0 {
		s = s[i+len("measured "):]
		if j := strings.Index(s, " ("); j >= 0 {
			s = s[:j] // the table's cell: the figure alone
		}
		return s
	}
	return s
}
