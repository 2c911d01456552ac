package run

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/workload"
)

// runInfo is what the result says about the run before it is measured: the
// tool, the workload, the configuration (password redacted) and its line.
func runInfo(ctx context.Context, cfg *config.Config, plan *workload.Plan, client *mongodb.Client, version string) results.RunInfo {
	red := cfg.Redact()
	raw, _ := json.Marshal(red)
	parents := map[string]string{}
	for _, op := range plan.AllOps() {
		if op.Parent != nil {
			parents[op.Name] = op.Parent.Name
		}
	}
	return results.RunInfo{
		Tool:       results.Tool{Name: "mongoload", Version: version},
		Label:      cfg.Run.Label,
		Workload:   results.Workload{Name: cfg.Name, Source: cfg.Source},
		Config:     raw,
		ConfigLine: configLine(red),
		OpTypes:    plan.OpTypes(),
		OpParents:  parents,
		Warmup:     cfg.Run.Warmup.D(),

		EmptyThreshold: cfg.Run.EmptyThreshold,
		MissCauses:     missCauses(cfg, plan, serverHolds(ctx, client)),
	}
}

// missCauses says, for each operation whose filter cannot reach its
// collection's documents, why (workload.MissCause): the report flags the
// operation only if its results were mostly empty. Each operation is read
// with its own filter (a step and a mix operation may share a name), and a
// field its template lacks is looked for in the collection, whose
// documents mongoload may not have made from this template (holds: nil
// without a server).
func missCauses(cfg *config.Config, plan *workload.Plan, holds func(col *workload.Collection, field string) bool) map[string]string {
	out := map[string]string{}
	for _, op := range plan.AllOps() {
		if op.Collection == nil || op.Config == nil {
			continue
		}
		var has func(string) bool
		if holds != nil {
			has = func(field string) bool { return holds(op.Collection, field) }
		}
		for i := range cfg.Collections {
			if cfg.Collections[i].Namespace() != op.Collection.Namespace() {
				continue
			}
			if c := workload.MissCause(op.Config.Filter, cfg.Collections[i].Template, SeedTarget(cfg, i), has); c != "" {
				out[op.Name] = c
			}
		}
	}
	return out
}

// serverHolds asks the server whether a collection's documents have a
// field, within a second; when it cannot tell, the template's word stands.
func serverHolds(ctx context.Context, client *mongodb.Client) func(*workload.Collection, string) bool {
	if client == nil {
		return nil
	}
	return func(col *workload.Collection, field string) bool {
		ctx, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		ok, err := client.HasField(ctx, col.Database, col.Name, field)
		return ok && err == nil
	}
}

func configLine(c *config.Config) string {
	r, cn := c.Run, c.Connection
	s := fmt.Sprintf("workload=%s uri=%s", c.Name, cn.URI)
	if r.Target == config.TargetNoop {
		s = fmt.Sprintf("workload=%s target=noop", c.Name)
	}
	switch {
	case r.Rate > 0:
		s += fmt.Sprintf(" rate=%g arrival=%s", r.Rate, cmp.Or(r.Arrival, "fixed"))
		if r.MaxInFlight > 0 {
			s += fmt.Sprintf(" maxInFlight=%d", r.MaxInFlight)
		}
	case r.Sessions > 0:
		s += fmt.Sprintf(" sessions=%d thinkTime=%s", r.Sessions, r.ThinkTime)
	default:
		s += fmt.Sprintf(" concurrency=%d", r.Concurrency)
	}
	if len(r.Stages) > 0 {
		s += fmt.Sprintf(" stages=%d", len(r.Stages))
	}
	if r.Partition != "" {
		s += " partition=" + r.Partition
	}
	if r.Duration > 0 {
		s += " duration=" + r.Duration.String()
	}
	if r.Operations > 0 {
		s += fmt.Sprintf(" operations=%d", r.Operations)
	}
	s += fmt.Sprintf(" warmup=%s seed=%d randomSeed=%d operationSeed=%d", r.Warmup, r.Seed, r.RandomSeed, r.OperationSeed)
	for _, kv := range [][2]string{{"readPreference", cn.ReadPreference}, {"readConcern", cn.ReadConcern}} {
		if kv[1] != "" {
			s += " " + kv[0] + "=" + kv[1]
		}
	}
	if cn.WriteConcern != nil && cn.WriteConcern.W != "" {
		s += " w=" + cn.WriteConcern.W
	}
	if cn.MaxPoolSize > 0 {
		s += fmt.Sprintf(" maxPoolSize=%d", cn.MaxPoolSize)
	}
	return s
}
