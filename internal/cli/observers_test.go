package cli

import (
	"context"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/sink"
	"github.com/mongoload/mongoload/internal/workload"
)

// observers builds the run's optional observers from cfg (see
// telemetryStage.open) and returns them as functions, for the tests that
// wire them by hand (runObserved): start when the measured phase begins,
// stop when the run ends, before the result is built, finish to add what
// they collected to the result before it is written. onSample, if given,
// also receives every server sample (the dashboard).
func observers(ctx context.Context, o IO, cfg *config.Config, plan *workload.Plan, client *mongodb.Client, onSample ...func(results.ServerSample)) (sinks []sink.Sink, start func(), stop func(context.Context), finish func(*results.Result), err error) {
	t := &telemetryStage{onSample: onSample}
	if sinks, err = t.open(ctx, o, cfg, plan, client); err != nil {
		return nil, nil, nil, nil, err
	}
	return sinks, t.start, t.stop, func(res *results.Result) { t.finish(cfg, plan, res) }, nil
}
