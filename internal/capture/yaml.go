package capture

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/workload"
)

// WriteYAML writes the workload file: the header, each collection and
// operation with comments saying where it came from, and the run
// settings. It is read back and compiled before it is written, so a file
// capture writes always runs.
func (w *Workload) WriteYAML(out io.Writer) error {
	var buf bytes.Buffer
	if err := w.encode(&buf); err != nil {
		return err
	}
	if err := workload.CheckYAML(buf.Bytes(), "captured workload"); err != nil {
		return fmt.Errorf("the captured workload does not validate (a bug: please report it): %w", err)
	}
	_, err := out.Write(buf.Bytes())
	return err
}

func (w *Workload) encode(out io.Writer) error {
	cfg := w.Config
	root := &yaml.Node{Kind: yaml.MappingNode, HeadComment: strings.Join(w.Header, "\n")}
	add := config.YAMLPair
	add(root, "name", config.YAMLString(cfg.Name))
	if len(cfg.CapturedFrom) > 0 {
		ids := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, id := range cfg.CapturedFrom {
			ids.Content = append(ids.Content, config.YAMLString(id))
		}
		k := add(root, "capturedFrom", ids)
		k.HeadComment = "the deployment this was captured from (hashes of its replica set name and hosts):\nrun, load, replay and ab refuse to write to it unless --write-to-source"
	}
	cols := &yaml.Node{Kind: yaml.SequenceNode}
	for i, col := range cfg.Collections {
		m := notedMapping(w.ColNotes, i)
		add(m, "database", config.YAMLString(col.Database))
		add(m, "name", config.YAMLString(col.Name))
		if col.Seed > 0 {
			add(m, "seed", config.YAMLNumber(col.Seed))
		}
		if col.Timeseries != nil {
			add(m, "timeseries", yamlTimeseries(col.Timeseries))
		}
		add(m, "template", config.YAMLValue(col.Template, true))
		if len(col.Indexes) > 0 {
			add(m, "indexes", config.YAMLIndexes(col.Indexes))
		}
		cols.Content = append(cols.Content, m)
	}
	add(root, "collections", cols)
	ops := &yaml.Node{Kind: yaml.SequenceNode}
	for i, op := range cfg.Operations {
		m := notedMapping(w.OpNotes, i)
		add(m, "name", config.YAMLString(op.Name))
		add(m, "type", config.YAMLString(op.Type))
		add(m, "collection", config.YAMLString(op.Collection))
		add(m, "weight", config.YAMLNumber(op.Weight))
		for _, part := range []struct {
			key string
			v   config.Value
		}{{"filter", op.Filter}, {"update", op.Update}, {"document", op.Document}, {"projection", op.Projection}, {"sort", op.Sort}, {"pipeline", op.Pipeline}} {
			if part.v.Kind != config.KindNull {
				add(m, part.key, config.YAMLValue(part.v, false))
			}
		}
		switch {
		case op.Limit.Generated():
			add(m, "limit", config.YAMLValue(op.Limit.Gen, false))
		case op.Limit.N > 0:
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
	if cfg.Run.Rate > 0 {
		k := add(run, "rate", config.YAMLNumber(cfg.Run.Rate))
		k.HeadComment = "the captured rate: the run is open loop at it (--rate-scale 2 for twice; --rate N for another)"
		if len(cfg.Run.Stages) > 0 {
			k.HeadComment = "the captured mean rate: the run is open loop, following the stages below (--rate-scale 2 for twice)"
		}
	}
	if len(cfg.Run.Stages) > 0 {
		parts := make([]string, len(cfg.Run.Stages))
		for i, st := range cfg.Run.Stages {
			parts[i] = fmt.Sprintf("%s:%g", st.Duration, st.Target)
		}
		k := add(run, "stages", config.YAMLString(strings.Join(parts, ",")))
		k.HeadComment = "the captured rate over time, step by step (open loop): it replaces rate; --rate-scale multiplies it, --stages replaces it"
		add(run, "repeatStages", config.YAMLNumber(cfg.Run.RepeatStages))
	}
	add(run, "duration", config.YAMLString(cfg.Run.Duration.String()))
	add(root, "run", run)
	return config.EncodeYAML(out, root)
}

// notedMapping is the mapping of the i-th entry, under its notes if any.
func notedMapping(notes [][]string, i int) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode}
	if i < len(notes) {
		m.HeadComment = strings.Join(notes[i], "\n")
	}
	return m
}
