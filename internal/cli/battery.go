package cli

import (
	"context"

	"github.com/mongoload/mongoload/internal/analysis"
	"github.com/mongoload/mongoload/internal/capacity"
	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/report"
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
			report.WriteVerdicts(o.Stdout, batteryRow(r))
		}
	})
	if max(cfg.Run.Repeat, 1) > 1 && len(runs) > 0 && len(objectives) > 0 {
		rows := make([]report.BatteryRun, len(runs))
		for i, r := range runs {
			rows[i] = batteryRow(r)
		}
		report.WriteBattery(o.Stdout, capacity.ObjectiveTexts(objectives), rows, capacity.Quorum(cfg))
	}
	return err
}

// batteryRow is a run's verdicts as the battery's table shows them.
func batteryRow(r capacity.BatteryRun) (row report.BatteryRun) {
	for _, v := range r.Verdicts {
		row.Lines, row.Figures, row.Met = append(row.Lines, v.String()), append(row.Figures, v.Figure()), append(row.Met, v.Pass)
	}
	return row
}
