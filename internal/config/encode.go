package config

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Encode is the one writer of workload files: capture, mongoload import
// plgm and the YCSB translation all write through it, so what they write
// reads back as the configuration they made (YAMLValue's rules: a whole
// double keeps its ".0", a date its timestamp form, documents in block
// style, generator calls in flow style).

// Encoding is what a writer adds to the configuration it writes.
type Encoding struct {
	// Header is the comment at the top: where the workload came from.
	Header string
	// ColNotes and OpNotes are the comments above each collection and
	// operation (by index): what each was made from.
	ColNotes, OpNotes [][]string
	// RunNotes are comments above run keys ("rate": how it was measured).
	RunNotes map[string]string
	// Always names run keys written even at their default value
	// ("concurrency", "duration"): the writer's own choice made visible.
	Always []string
	// Wrap, when above 0, writes an operation's value whose flow form
	// would be longer than Wrap characters in block style, level by level
	// (a $set of ten generated fields, one a line); 0 keeps flow style.
	Wrap int
}

// Encode writes cfg as a workload file: the name, description, the
// connection settings that differ from the defaults (the URI redacted,
// never the password), the capture source, the collections, the
// operations and the run settings that differ from the defaults.
func Encode(w io.Writer, cfg *Config, e Encoding) error {
	def := Default()
	root := &yaml.Node{Kind: yaml.MappingNode, HeadComment: e.Header}
	YAMLPair(root, "name", YAMLString(cfg.Name))
	if cfg.Description != "" {
		YAMLPair(root, "description", YAMLString(cfg.Description))
	}
	if cn := encodeConnection(cfg.Connection, def.Connection); len(cn.Content) > 0 {
		YAMLPair(root, "connection", cn)
	}
	if len(cfg.CapturedFrom) > 0 {
		ids := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, id := range cfg.CapturedFrom {
			ids.Content = append(ids.Content, YAMLString(id))
		}
		k := YAMLPair(root, "capturedFrom", ids)
		k.HeadComment = "the deployment this was captured from (hashes of its replica set name and hosts):\nrun, load, replay and ab refuse to write to it unless --write-to-source"
	}
	cols := &yaml.Node{Kind: yaml.SequenceNode}
	for i, col := range cfg.Collections {
		cols.Content = append(cols.Content, encodeCollection(col, notes(e.ColNotes, i)))
	}
	YAMLPair(root, "collections", cols)
	ops := &yaml.Node{Kind: yaml.SequenceNode}
	for i, op := range cfg.Operations {
		ops.Content = append(ops.Content, encodeOperation(op, notes(e.OpNotes, i), e.Wrap))
	}
	YAMLPair(root, "operations", ops)
	YAMLPair(root, "run", encodeRun(cfg.Run, def.Run, e))
	return EncodeYAML(w, root)
}

// notes is the comment of the i-th entry, if any.
func notes(all [][]string, i int) string {
	if i < len(all) {
		return strings.Join(all[i], "\n")
	}
	return ""
}

func encodeCollection(col Collection, comment string) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode, HeadComment: comment}
	YAMLPair(m, "database", YAMLString(col.Database))
	YAMLPair(m, "name", YAMLString(col.Name))
	if col.Seed > 0 {
		YAMLPair(m, "seed", YAMLNumber(col.Seed))
	}
	if col.Timeseries != nil {
		YAMLPair(m, "timeseries", encodeTimeseries(col.Timeseries))
	}
	YAMLPair(m, "template", YAMLValue(col.Template, true))
	if len(col.Indexes) > 0 {
		YAMLPair(m, "indexes", YAMLIndexes(col.Indexes))
	}
	if !col.ShardKey.IsZero() {
		YAMLPair(m, "shardKey", YAMLValue(col.ShardKey, false))
	}
	return m
}

func encodeTimeseries(ts *Timeseries) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
	for _, f := range [][2]string{{"timeField", ts.TimeField}, {"metaField", ts.MetaField}, {"granularity", ts.Granularity}} {
		if f[1] != "" {
			YAMLPair(m, f[0], YAMLString(f[1]))
		}
	}
	for _, f := range []struct {
		k string
		v int64
	}{{"bucketMaxSpanSeconds", ts.BucketMaxSpanSeconds}, {"bucketRoundingSeconds", ts.BucketRoundingSeconds}, {"expireAfterSeconds", ts.ExpireAfterSeconds}} {
		if f.v > 0 {
			YAMLPair(m, f.k, YAMLNumber(f.v))
		}
	}
	return m
}

func encodeOperation(op Operation, comment string, wrap int) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode, HeadComment: comment}
	YAMLPair(m, "name", YAMLString(op.Name))
	YAMLPair(m, "type", YAMLString(op.Type))
	if op.Collection != "" {
		YAMLPair(m, "collection", YAMLString(op.Collection))
	}
	YAMLPair(m, "weight", YAMLNumber(op.Weight))
	for _, part := range []struct {
		key string
		v   Value
	}{{"filter", op.Filter}, {"update", op.Update}, {"document", op.Document}, {"projection", op.Projection}, {"sort", op.Sort}, {"pipeline", op.Pipeline}} {
		if !part.v.IsZero() {
			YAMLPair(m, part.key, wrapped(part.v, wrap))
		}
	}
	switch {
	case op.Limit.Generated():
		YAMLPair(m, "limit", YAMLValue(op.Limit.Gen, false))
	case op.Limit.N > 0:
		YAMLPair(m, "limit", YAMLNumber(op.Limit.N))
	}
	if op.BatchSize > 0 {
		YAMLPair(m, "batchSize", YAMLNumber(op.BatchSize))
	}
	if op.Upsert {
		YAMLPair(m, "upsert", YAMLNumber(true))
	}
	return m
}

// wrapped is YAMLValue in flow style, or in block style where the flow
// form is longer than wrap characters, down to the levels that fit.
func wrapped(v Value, wrap int) *yaml.Node {
	n := YAMLValue(v, false)
	if wrap <= 0 || v.Kind == KindScalar || v.Kind == KindNull {
		return n
	}
	if flow, err := yaml.Marshal(n); err == nil && len(flow) <= wrap {
		return n
	}
	n.Style = 0
	if v.Kind == KindArray {
		n.Content = n.Content[:0]
		for _, it := range v.Items {
			n.Content = append(n.Content, wrapped(it, wrap))
		}
		return n
	}
	for i := 1; i < len(n.Content); i += 2 { // a document's or a generator call's values
		key := n.Content[i-1].Value
		if f, ok := fieldOf(v, key); ok {
			n.Content[i] = wrapped(f, wrap)
		}
	}
	return n
}

// fieldOf is the value of v's field key.
func fieldOf(v Value, key string) (Value, bool) {
	for _, f := range v.Fields {
		if f.Key == key {
			return f.Value, true
		}
	}
	return Value{}, false
}

// encodeRun writes the run settings that differ from the defaults, and
// those e.Always names, each under its note.
func encodeRun(r, def Run, e Encoding) *yaml.Node {
	stages := make([]string, len(r.Stages))
	for i, st := range r.Stages {
		stages[i] = fmt.Sprintf("%s:%g", st.Duration, st.Target)
	}
	keys := []struct {
		key     string
		v       any
		differs bool
	}{
		{"concurrency", r.Concurrency, r.Concurrency != def.Concurrency},
		{"rate", r.Rate, r.Rate > 0},
		{"stages", strings.Join(stages, ","), len(r.Stages) > 0},
		{"repeatStages", r.RepeatStages, r.RepeatStages},
		{"operations", r.Operations, r.Operations > 0},
		{"duration", r.Duration.String(), r.Duration != def.Duration},
		{"seed", r.Seed, r.Seed > 0},
		{"seedBatchSize", r.SeedBatchSize, r.SeedBatchSize != def.SeedBatchSize},
		{"drop", r.Drop, r.Drop},
		{"randomSeed", r.RandomSeed, r.RandomSeed != def.RandomSeed},
		{"operationSeed", r.OperationSeed, r.OperationSeed != def.OperationSeed},
		{"interval", r.Interval.String(), r.Interval != def.Interval},
	}
	m := &yaml.Node{Kind: yaml.MappingNode}
	for _, k := range keys {
		if !k.differs && !slices.Contains(e.Always, k.key) {
			continue
		}
		v := YAMLNumber(k.v)
		if s, ok := k.v.(string); ok {
			v = YAMLString(s)
		}
		YAMLPair(m, k.key, v).HeadComment = e.RunNotes[k.key]
	}
	return m
}

// encodeConnection writes the connection settings that differ from the
// defaults, without the password.
func encodeConnection(cn, def Connection) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode}
	add := func(key string, v *yaml.Node) { YAMLPair(m, key, v) }
	if cn.URI != def.URI {
		add("uri", YAMLString(RedactURI(cn.URI)))
	}
	for _, kv := range [][2]string{{"username", cn.Username}, {"authSource", cn.AuthSource}, {"readPreference", cn.ReadPreference}} {
		if kv[1] != "" {
			add(kv[0], YAMLString(kv[1]))
		}
	}
	if cn.MaxPoolSize > 0 {
		add("maxPoolSize", YAMLNumber(cn.MaxPoolSize))
	}
	if cn.MinPoolSize > 0 {
		add("minPoolSize", YAMLNumber(cn.MinPoolSize))
	}
	t := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
	if cn.Timeouts.Connect != def.Timeouts.Connect {
		t.Content = append(t.Content, YAMLString("connect"), YAMLString(cn.Timeouts.Connect.String()))
	}
	if cn.Timeouts.ServerSelection != def.Timeouts.ServerSelection {
		t.Content = append(t.Content, YAMLString("serverSelection"), YAMLString(cn.Timeouts.ServerSelection.String()))
	}
	if len(t.Content) > 0 {
		add("timeouts", t)
	}
	if len(cn.Options) > 0 {
		o := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
		for _, k := range slices.Sorted(maps.Keys(cn.Options)) {
			o.Content = append(o.Content, YAMLString(k), YAMLString(cn.Options[k]))
		}
		add("options", o)
	}
	return m
}

// EncodeEffective writes every setting of cfg, the password redacted, as
// run --print-config shows the configuration a run would use.
func EncodeEffective(w io.Writer, cfg *Config) error {
	fmt.Fprintf(w, "# effective configuration of %s\n", cfg.Source)
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(cfg.Redact()); err != nil {
		return err
	}
	return enc.Close()
}
