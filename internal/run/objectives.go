package run

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mongoload/mongoload/internal/analysis"
	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/workload"
)

// checkObjectives refuses, before the server is touched, an objective of
// --slo that the run has nothing to measure for: a lag objective without
// a watcher (or one naming a watcher the workload lacks, or any under
// --target noop, which opens none), an objective scoped to an operation
// that is neither a name nor a type of the workload's. Each used to fail
// only after the whole run.
func checkObjectives(cfg *config.Config, plan *workload.Plan) error {
	if cfg.Run.SLO == "" {
		return nil
	}
	objectives, err := analysis.ParseObjectives(cfg.Run.SLO)
	if err != nil {
		return nil // refused by CheckConfig already
	}
	for _, o := range objectives {
		if why := unmeasurable(o, cfg, plan); why != "" {
			return cfg.Refuse("run.slo", fmt.Errorf("objective %q: %s, so it would fail every run; change or remove the objective", o.Text, why))
		}
	}
	return nil
}

// unmeasurable says why the run has nothing to measure o with ("" when
// it has something).
func unmeasurable(o analysis.Objective, cfg *config.Config, plan *workload.Plan) string {
	if o.Watch {
		var names []string
		for _, w := range plan.Watchers {
			names = append(names, w.Name)
		}
		switch {
		case len(names) == 0:
			return "the workload has no watchers (a lag is measured on their change streams)"
		case Noop(cfg):
			return "--target noop opens no watcher (there is no server to watch)"
		case o.Scope != "" && !slices.Contains(names, o.Scope):
			return fmt.Sprintf("the workload has no watcher %q%s (its watchers: %s)", o.Scope, config.DidYouMean(o.Scope, names), strings.Join(names, ", "))
		}
		return ""
	}
	if o.Scope == "" {
		return ""
	}
	var names []string
	for _, op := range plan.AllOps() {
		if op.Name == o.Scope || (op.Parent == nil && op.Type == o.Scope) {
			return ""
		}
		names = append(names, op.Name)
	}
	return fmt.Sprintf("the workload has no operation named %q%s and none of that type", o.Scope, config.DidYouMean(o.Scope, names))
}
