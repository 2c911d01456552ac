package input

import (
	"bytes"
	"fmt"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/plgm"
	"github.com/mongoload/mongoload/internal/run"
	"github.com/mongoload/mongoload/internal/workload"
)

// ImportPlgm converts plgm definitions into mongoload YAML, checked to
// validate, and warns (through warn) of what the conversion changed, of
// operations whose filter can find nothing, and of a password left out.
func ImportPlgm(opts plgm.Options, warn func(string)) ([]byte, error) {
	res, err := plgm.Convert(opts)
	if err != nil {
		return nil, err
	}
	res.Warnings = append(res.Warnings, missWarnings(res)...)
	for _, w := range res.Warnings {
		warn("warning: plgm: " + w.String())
	}
	if res.Config.Connection.Password != "" {
		warn("warning: plgm: PLGM_PASSWORD is not written to the workload: set " + config.EnvName("password") + " when you run it")
	}
	var buf bytes.Buffer
	if err := plgm.WriteYAML(&buf, res); err != nil {
		return nil, err
	}
	if err := workload.CheckYAML(buf.Bytes(), "imported workload"); err != nil {
		return nil, fmt.Errorf("the converted workload does not validate (a bug: please report it with the definitions): %w", err)
	}
	return buf.Bytes(), nil
}

// missWarnings warn of converted operations whose filter cannot reach the
// collection's documents (workload.MissCause, the rule a run's report
// uses), but for those the conversion warned of already.
func missWarnings(res *plgm.Result) []plgm.Warning {
	warned := map[string]bool{}
	for _, w := range res.Warnings {
		warned[w.Field] = true
	}
	cfg := res.Config
	var out []plgm.Warning
	for _, op := range cfg.Operations {
		if warned[op.Name] {
			continue
		}
		for i, col := range cfg.Collections {
			if col.Name != op.Collection && col.Namespace() != op.Collection {
				continue
			}
			if c := workload.MissCause(op.Filter, col.Template, run.SeedTarget(cfg, i), nil); c != "" {
				out = append(out, plgm.Warning{Field: op.Name, Msg: "its filter can find nothing, as in plgm: " + c})
			}
		}
	}
	return out
}
