package run

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/engine"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
)

// model picks the load model: open loop when a rate is set, sessions when
// sessions are, closed loop otherwise.
func model(cfg *config.Config) engine.Model {
	switch {
	case cfg.Run.Rate > 0:
		return engine.Open
	case cfg.Run.Sessions > 0:
		return engine.Sessions
	}
	return engine.Closed
}

// engineOptions turns the run configuration into the engine's options and
// the report's description of the load. A partition takes its share of the
// rate and of the sessions; the workers of a closed loop are per process.
func engineOptions(cfg *config.Config) (engine.Options, results.LoadModel) {
	r := cfg.Run
	part, _ := config.ParsePartition(r.Partition) // validated already
	n := float64(part.Count)
	o := engine.Options{
		Model: model(cfg), Concurrency: r.Concurrency, MaxInFlight: r.MaxInFlight,
		Rate: r.Rate / n, Poisson: r.Arrival == "poisson",
		Sessions: int(part.Share(int64(r.Sessions))), ThinkTime: r.ThinkTime.D(), ThinkExp: r.ThinkDist == "exponential",
		Duration: r.Duration.D(), Operations: r.Operations, Warmup: r.Warmup.D(), Interval: r.Interval.D(), Grace: r.Grace.D(),
		RandomSeed: r.OperationSeed + uint64(part.Index)*1_000_003, // partitions must not draw the same values
		LostAfter:  LostAfter(cfg), Classify: mongodb.Classify, IsLoss: mongodb.IsConnectionLoss, IsFault: mongodb.IsUnavailable,
	}
	if o.Model == engine.Open && r.Operations > 0 {
		o.Operations = part.Share(r.Operations)
	}
	for _, st := range r.Stages {
		target := st.Target
		if o.Model == engine.Open {
			target /= n
		}
		o.Stages = append(o.Stages, engine.Stage{Duration: st.Duration.D(), Target: target})
	}
	o.RepeatStages = r.RepeatStages
	if o.Model != engine.Open && o.MaxInFlight == 0 {
		o.MaxInFlight = cfg.Connection.PoolSize() // queue workers beyond the pool: see engine.startClosed
	}
	lm := results.LoadModel{Type: string(o.Model), Concurrency: o.Concurrency, Partition: r.Partition,
		MaxInFlight: cmp.Or(o.MaxInFlight, engine.DefaultMaxInFlight), LatencyFrom: engine.Clock(o)}
	if engine.Service(o) {
		lm.ServiceTimeFrom = metrics.FromSend
	}
	switch o.Model {
	case engine.Open:
		lm.Rate, lm.Arrival, lm.Concurrency = o.Rate, cmp.Or(r.Arrival, "fixed"), cmp.Or(o.MaxInFlight, engine.DefaultMaxInFlight)
	case engine.Sessions:
		lm.Concurrency, lm.Sessions, lm.ThinkTime = 0, o.Sessions, r.ThinkTime.String()
		if o.ThinkExp {
			lm.ThinkTime = "exp(" + lm.ThinkTime + ")"
		}
	}
	if len(r.Stages) > 0 {
		var parts []string
		for _, st := range o.Stages {
			parts = append(parts, fmt.Sprintf("%s:%g", config.Duration(st.Duration), st.Target))
		}
		lm.Stages = strings.Join(parts, ",")
		if r.RepeatStages {
			lm.Stages += " (repeated)"
		}
	}
	return o, lm
}
