package plgm

import (
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

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
	add := func(parent *yaml.Node, key string, v *yaml.Node) {
		parent.Content = append(parent.Content, scalar(key), v)
	}
	add(root, "name", scalar(cfg.Name))
	add(root, "description", scalar(cfg.Description))
	if cn := connection(cfg.Connection, def.Connection); len(cn.Content) > 0 {
		add(root, "connection", cn)
	}
	cols := &yaml.Node{Kind: yaml.SequenceNode}
	for _, col := range cfg.Collections {
		m := &yaml.Node{Kind: yaml.MappingNode}
		add(m, "database", scalar(col.Database))
		add(m, "name", scalar(col.Name))
		add(m, "template", valueNode(col.Template, true))
		if len(col.Indexes) > 0 {
			ixs := &yaml.Node{Kind: yaml.SequenceNode}
			for _, ix := range col.Indexes {
				im := &yaml.Node{Kind: yaml.MappingNode}
				add(im, "keys", valueNode(ix.Keys, false))
				ixs.Content = append(ixs.Content, im)
			}
			add(m, "indexes", ixs)
		}
		if !col.ShardKey.IsZero() {
			add(m, "shardKey", valueNode(col.ShardKey, false))
		}
		cols.Content = append(cols.Content, m)
	}
	add(root, "collections", cols)
	ops := &yaml.Node{Kind: yaml.SequenceNode}
	for _, op := range cfg.Operations {
		m := &yaml.Node{Kind: yaml.MappingNode}
		add(m, "name", scalar(op.Name))
		add(m, "type", scalar(op.Type))
		if len(cfg.Collections) > 1 {
			add(m, "collection", scalar(op.Collection))
		}
		add(m, "weight", numNode(op.Weight))
		for _, part := range []struct {
			key string
			v   config.Value
		}{{"filter", op.Filter}, {"update", op.Update}, {"projection", op.Projection}, {"sort", op.Sort}, {"pipeline", op.Pipeline}} {
			if !part.v.IsZero() {
				add(m, part.key, valueNode(part.v, false))
			}
		}
		if !op.Limit.IsZero() {
			add(m, "limit", numNode(op.Limit.N))
		}
		if op.BatchSize > 0 {
			add(m, "batchSize", numNode(op.BatchSize))
		}
		if op.Upsert {
			add(m, "upsert", numNode(true))
		}
		ops.Content = append(ops.Content, m)
	}
	add(root, "operations", ops)
	run := &yaml.Node{Kind: yaml.MappingNode}
	rc, rd := cfg.Run, def.Run
	add(run, "concurrency", numNode(rc.Concurrency))
	add(run, "duration", scalar(rc.Duration.String()))
	if rc.Seed > 0 {
		add(run, "seed", numNode(rc.Seed))
	}
	if rc.SeedBatchSize != rd.SeedBatchSize {
		add(run, "seedBatchSize", numNode(rc.SeedBatchSize))
	}
	if rc.Drop {
		add(run, "drop", numNode(true))
	}
	if rc.RandomSeed != rd.RandomSeed {
		add(run, "randomSeed", numNode(rc.RandomSeed))
	}
	if rc.OperationSeed != rd.OperationSeed {
		add(run, "operationSeed", numNode(rc.OperationSeed))
	}
	if rc.Interval != rd.Interval {
		add(run, "interval", scalar(rc.Interval.String()))
	}
	add(root, "run", run)
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return err
	}
	return enc.Close()
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
	add := func(key string, v *yaml.Node) { m.Content = append(m.Content, scalar(key), v) }
	if cn.URI != def.URI {
		add("uri", scalar(config.RedactURI(cn.URI)))
	}
	for _, kv := range [][2]string{{"username", cn.Username}, {"authSource", cn.AuthSource}, {"readPreference", cn.ReadPreference}} {
		if kv[1] != "" {
			add(kv[0], scalar(kv[1]))
		}
	}
	if cn.MaxPoolSize > 0 {
		add("maxPoolSize", numNode(cn.MaxPoolSize))
	}
	if cn.MinPoolSize > 0 {
		add("minPoolSize", numNode(cn.MinPoolSize))
	}
	t := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
	if cn.Timeouts.Connect != def.Timeouts.Connect {
		t.Content = append(t.Content, scalar("connect"), scalar(cn.Timeouts.Connect.String()))
	}
	if cn.Timeouts.ServerSelection != def.Timeouts.ServerSelection {
		t.Content = append(t.Content, scalar("serverSelection"), scalar(cn.Timeouts.ServerSelection.String()))
	}
	if len(t.Content) > 0 {
		add("timeouts", t)
	}
	if len(cn.Options) > 0 {
		o := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
		for _, k := range sortedKeys(cn.Options) {
			o.Content = append(o.Content, scalar(k), scalar(cn.Options[k]))
		}
		add("options", o)
	}
	return m
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// scalar is a string, quoted when it would read as something else.
func scalar(s string) *yaml.Node {
	n := &yaml.Node{}
	_ = n.Encode(s)
	return n
}

// numNode encodes a number or a boolean; a whole float keeps its ".0" so
// that it reads back as a double, not an integer.
func numNode(x any) *yaml.Node {
	if f, ok := x.(float64); ok && f == math.Trunc(f) && !math.IsInf(f, 0) && math.Abs(f) < 1e15 {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: strconv.FormatFloat(f, 'f', 1, 64)}
	}
	n := &yaml.Node{}
	_ = n.Encode(x)
	return n
}

// valueNode writes a template value; block writes documents as indented
// mappings (a collection's template), generator calls and lists always in
// flow style.
func valueNode(v config.Value, block bool) *yaml.Node {
	switch v.Kind {
	case config.KindNull:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	case config.KindScalar:
		switch s := v.Scalar.(type) {
		case string:
			return scalar(s)
		case time.Time:
			if u := s.UTC(); u.Equal(u.Truncate(24 * time.Hour)) {
				return &yaml.Node{Kind: yaml.ScalarNode, Value: u.Format("2006-01-02")}
			}
			return &yaml.Node{Kind: yaml.ScalarNode, Value: s.UTC().Format(time.RFC3339Nano)}
		}
		return numNode(v.Scalar)
	case config.KindArray:
		n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, it := range v.Items {
			n.Content = append(n.Content, valueNode(it, false))
		}
		return n
	}
	n := &yaml.Node{Kind: yaml.MappingNode}
	if v.Kind == config.KindGen || !block || len(v.Fields) == 0 {
		n.Style = yaml.FlowStyle
		block = false
	}
	if v.Kind == config.KindGen {
		n.Content = append(n.Content, scalar(config.GenKey), scalar(v.Gen))
	}
	for _, f := range v.Fields {
		n.Content = append(n.Content, scalar(f.Key), valueNode(f.Value, block))
	}
	return n
}
