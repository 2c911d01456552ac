package plgm

import (
	"io"
	"maps"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/mongoload/mongoload/internal/config"
)

// WriteYAML writes the converted workload as a mongoload workload file:
// documents in block style, generator calls and queries in flow style,
// and a header saying where it came from. The password is never written.
func WriteYAML(w io.Writer, r *Result) error {
	cfg := r.Config
	def := config.Default()
	root := &yaml.Node{Kind: yaml.MappingNode}
	root.HeadComment = header(r)
	add := config.YAMLPair
	add(root, "name", config.YAMLString(cfg.Name))
	add(root, "description", config.YAMLString(cfg.Description))
	if cn := connection(cfg.Connection, def.Connection); len(cn.Content) > 0 {
		add(root, "connection", cn)
	}
	cols := &yaml.Node{Kind: yaml.SequenceNode}
	for _, col := range cfg.Collections {
		m := &yaml.Node{Kind: yaml.MappingNode}
		add(m, "database", config.YAMLString(col.Database))
		add(m, "name", config.YAMLString(col.Name))
		add(m, "template", config.YAMLValue(col.Template, true))
		if len(col.Indexes) > 0 {
			add(m, "indexes", config.YAMLIndexes(col.Indexes))
		}
		if !col.ShardKey.IsZero() {
			add(m, "shardKey", config.YAMLValue(col.ShardKey, false))
		}
		cols.Content = append(cols.Content, m)
	}
	add(root, "collections", cols)
	ops := &yaml.Node{Kind: yaml.SequenceNode}
	for _, op := range cfg.Operations {
		m := &yaml.Node{Kind: yaml.MappingNode}
		add(m, "name", config.YAMLString(op.Name))
		add(m, "type", config.YAMLString(op.Type))
		if len(cfg.Collections) > 1 {
			add(m, "collection", config.YAMLString(op.Collection))
		}
		add(m, "weight", config.YAMLNumber(op.Weight))
		for _, part := range []struct {
			key string
			v   config.Value
		}{{"filter", op.Filter}, {"update", op.Update}, {"projection", op.Projection}, {"sort", op.Sort}, {"pipeline", op.Pipeline}} {
			if !part.v.IsZero() {
				add(m, part.key, config.YAMLValue(part.v, false))
			}
		}
		if !op.Limit.IsZero() {
			add(m, "limit", config.YAMLNumber(op.Limit.N))
		}
		if op.BatchSize > 0 {
			add(m, "batchSize", config.YAMLNumber(op.BatchSize))
		}
		if op.Upsert {
			add(m, "upsert", config.YAMLNumber(true))
		}
		ops.Content = append(ops.Content, m)
	}
	add(root, "operations", ops)
	run := &yaml.Node{Kind: yaml.MappingNode}
	rc, rd := cfg.Run, def.Run
	add(run, "concurrency", config.YAMLNumber(rc.Concurrency))
	add(run, "duration", config.YAMLString(rc.Duration.String()))
	if rc.Seed > 0 {
		add(run, "seed", config.YAMLNumber(rc.Seed))
	}
	if rc.SeedBatchSize != rd.SeedBatchSize {
		add(run, "seedBatchSize", config.YAMLNumber(rc.SeedBatchSize))
	}
	if rc.Drop {
		add(run, "drop", config.YAMLNumber(true))
	}
	if rc.RandomSeed != rd.RandomSeed {
		add(run, "randomSeed", config.YAMLNumber(rc.RandomSeed))
	}
	if rc.OperationSeed != rd.OperationSeed {
		add(run, "operationSeed", config.YAMLNumber(rc.OperationSeed))
	}
	if rc.Interval != rd.Interval {
		add(run, "interval", config.YAMLString(rc.Interval.String()))
	}
	add(root, "run", run)
	return config.EncodeYAML(w, root)
}

func header(r *Result) string {
	lines := []string{
		"Converted from plgm by 'mongoload import plgm'.",
		"  collections: " + strings.Join(r.CollectionFiles, ", "),
	}
	if len(r.QueryFiles) > 0 {
		lines = append(lines, "  queries: "+strings.Join(r.QueryFiles, ", "))
	}
	lines = append(lines, "  mix after plgm's normalization: "+mixText(r.Mix),
		"Check it with 'mongoload validate FILE', run it with 'mongoload run FILE'.")
	if len(r.Warnings) > 0 {
		lines = append(lines, "Conversion warnings:")
		for _, w := range r.Warnings {
			lines = append(lines, "  "+w.String())
		}
	}
	return strings.Join(lines, "\n")
}

// connection writes the connection settings that differ from the
// defaults, without the password.
func connection(cn, def config.Connection) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode}
	add := func(key string, v *yaml.Node) { config.YAMLPair(m, key, v) }
	if cn.URI != def.URI {
		add("uri", config.YAMLString(config.RedactURI(cn.URI)))
	}
	for _, kv := range [][2]string{{"username", cn.Username}, {"authSource", cn.AuthSource}, {"readPreference", cn.ReadPreference}} {
		if kv[1] != "" {
			add(kv[0], config.YAMLString(kv[1]))
		}
	}
	if cn.MaxPoolSize > 0 {
		add("maxPoolSize", config.YAMLNumber(cn.MaxPoolSize))
	}
	if cn.MinPoolSize > 0 {
		add("minPoolSize", config.YAMLNumber(cn.MinPoolSize))
	}
	t := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
	if cn.Timeouts.Connect != def.Timeouts.Connect {
		t.Content = append(t.Content, config.YAMLString("connect"), config.YAMLString(cn.Timeouts.Connect.String()))
	}
	if cn.Timeouts.ServerSelection != def.Timeouts.ServerSelection {
		t.Content = append(t.Content, config.YAMLString("serverSelection"), config.YAMLString(cn.Timeouts.ServerSelection.String()))
	}
	if len(t.Content) > 0 {
		add("timeouts", t)
	}
	if len(cn.Options) > 0 {
		o := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
		for _, k := range slices.Sorted(maps.Keys(cn.Options)) {
			o.Content = append(o.Content, config.YAMLString(k), config.YAMLString(cn.Options[k]))
		}
		add("options", o)
	}
	return m
}
