package run

import (
	"fmt"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/history"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/sink/promsink"
)

// checkOutputs tries every output of a run before it touches the server:
// the results file, the interval log (--hdr-log) and the Prometheus
// endpoint (--prometheus). Found later, their failures came after --drop
// and seeding had already changed the collections (hours of work at
// production sizes). inputs are the files the command reads, which no
// output may overwrite.
// The Prometheus port is bound here and held for the whole session
// (prom): checked and let go, it could be taken before the first run.
func checkOutputs(cfg *config.Config, inputs []string) (prom *promsink.Held, err error) {
	if cfg.Run.Out != "" {
		if err := results.CheckWritable(cfg.Run.Out, inputs...); err != nil {
			return nil, fail(Output, err)
		}
	}
	if cfg.Run.HdrLog != "" {
		if err := results.CheckWritableAs("interval log (--hdr-log)", cfg.Run.HdrLog, inputs...); err != nil {
			return nil, fail(Output, err)
		}
	}
	if cfg.Run.History != "" {
		if err := history.Check(cfg.Run.History); err != nil {
			return nil, fail(Output, fmt.Errorf("--history %s: %w", history.Redact(cfg.Run.History), err))
		}
	}
	if err := results.CheckDistinct(results.Output{What: "results file (--out)", Path: cfg.Run.Out},
		results.Output{What: "interval log (--hdr-log)", Path: cfg.Run.HdrLog}); err != nil {
		return nil, fail(Output, err)
	}
	if cfg.Run.Prometheus != "" {
		if prom, err = promsink.Hold(cfg.Run.Prometheus); err != nil {
			return nil, fail(Output, fmt.Errorf("--prometheus %s: %w: choose another port, or stop what listens there", cfg.Run.Prometheus, err))
		}
	}
	return prom, nil
}
