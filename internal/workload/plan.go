// Package workload compiles a validated configuration into a Plan: the
// collections with their key spaces and document generators, and the
// operations with their compiled templates and weighted mix. A Plan is
// immutable and shared; everything a worker mutates lives in its Request and
// generate.State.
package workload

import (
	"slices"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/generate"
)

// Plan is a compiled workload.
type Plan struct {
	Name        string
	Source      string
	Collections []*Collection
	Ops         []*Op
	// Steps are the steps of every transaction of Ops, in order; each has
	// its own metrics index after the mix's operations.
	Steps []*Op
	// Parts are the read and the update of every read-modify-write of Ops,
	// measured each in its own histogram too; their metrics indexes follow
	// the steps'.
	Parts []*Op
	Mix   *Mix
	// Outputs are the collections the operations' pipelines write into
	// ($out, $merge), with the operation that does.
	Outputs []Output
	// Watchers are the change-stream consumers held open beside the
	// operations (watcher.go); they are no operations of the mix.
	Watchers []*Watcher
}

// Collection is one collection of the workload.
type Collection struct {
	Database string
	Name     string
	Keys     *generate.KeySpace
	Doc      *generate.Document // a new document, keys in insert mode
	Indexes  []Index
	ShardKey []byte // BSON document, nil when none
	// Writes is true when some operation of the plan writes to it.
	Writes bool
	// WrittenBy names the first pipeline stage that writes into it, when
	// one does: the ownership rule's refusal quotes it.
	WrittenBy string
	// AlteredBy names the first command of a replay that alters it (DDL:
	// a drop, a rename, an index built or dropped...); IndexBuildsOnly
	// when every such command only builds indexes. The ownership rule
	// lets none touch a collection mongoload did not create, but an
	// index build with --create-indexes.
	AlteredBy       string
	IndexBuildsOnly bool
	// LeaveMissing: setup does not create it when it is missing (only a
	// replay's DDL names it: the command itself creates, renames into or
	// drops it).
	LeaveMissing bool
	// OutputOnly: no collection of the workload, only a pipeline's
	// target (it has no template, no key space to seed).
	OutputOnly bool
	// Timeseries: created as a time-series collection; nil for a plain one.
	Timeseries *config.Timeseries
}

// Namespace is "database.collection".
func (c *Collection) Namespace() string { return c.Database + "." + c.Name }

// Index is an index to create, its keys encoded as a BSON document.
type Index struct {
	Name   string
	Keys   []byte
	Unique bool
	Sparse bool
	TTL    time.Duration
	// Partial is the partialFilterExpression as BSON, nil for none.
	Partial []byte
	Hashed  bool
}

// OpNames lists the operation names in metrics order: the mix's
// operations, then every transaction step ("transaction/step").
func (p *Plan) OpNames() []string {
	all := p.AllOps()
	names := make([]string, len(all))
	for i, op := range all {
		names[i] = op.Name
	}
	return names
}

// OpParents lists, in metrics order, the name of the transaction each
// operation is a step of (or the read-modify-write it is a part of): ""
// for the mix's operations (metrics.InMix).
func (p *Plan) OpParents() []string {
	parents := make([]string, 0, len(p.Ops)+len(p.Steps)+len(p.Parts))
	for _, op := range p.AllOps() {
		parent := ""
		if op.Parent != nil {
			parent = op.Parent.Name
		}
		parents = append(parents, parent)
	}
	return parents
}

// OpTypes maps every operation's name to its type as written ("findOne",
// "upsert", "transaction", ...).
func (p *Plan) OpTypes() map[string]string {
	types := make(map[string]string, len(p.Ops)+len(p.Steps)+len(p.Parts))
	for _, op := range p.AllOps() {
		types[op.Name] = op.Type
	}
	return types
}

// AllOps lists every operation in metrics order: the mix's, the steps,
// then the parts.
func (p *Plan) AllOps() []*Op {
	return slices.Concat(p.Ops, p.Steps, p.Parts)
}

// Compile turns a validated configuration into a Plan.
func Compile(cfg *config.Config) (*Plan, error) {
	p := &Plan{Name: cfg.Name, Source: cfg.Source}
	if es := checkLimits(cfg); len(es) > 0 {
		return nil, config.WithFile(es, cfg.Source)
	}
	var es config.Errors
	keyspaces := map[string]*generate.KeySpace{}
	for i := range cfg.Collections {
		col, err := compileCollection(&cfg.Collections[i], cfg.Run.RandomSeed, keyspaces)
		if err != nil {
			es = appendErr(es, err)
			continue
		}
		p.Collections = append(p.Collections, col)
	}
	if len(es) > 0 {
		return nil, config.WithFile(es, cfg.Source)
	}
	for i := range cfg.Operations {
		oc := &cfg.Operations[i]
		if oc.Type == "transaction" {
			ops, err := compileTransaction(cfg, oc, i, p)
			if err != nil {
				es = appendErr(es, err)
			}
			p.Ops = append(p.Ops, ops...)
			continue
		}
		op, err := compileOp(cfg, oc, i, p)
		if err != nil {
			es = appendErr(es, err)
			continue
		}
		p.Ops = append(p.Ops, op)
	}
	if len(es) > 0 {
		return nil, config.WithFile(es, cfg.Source)
	}
	// The mix's operations come first in the metrics, then every step.
	for i, op := range p.Ops {
		op.Index = i
	}
	for _, op := range p.Ops {
		for _, st := range op.Steps {
			st.Index = len(p.Ops) + len(p.Steps)
			p.Steps = append(p.Steps, st)
		}
	}
	for _, op := range p.Ops {
		for _, pt := range op.Parts {
			pt.Index = len(p.Ops) + len(p.Steps) + len(p.Parts)
			p.Parts = append(p.Parts, pt)
		}
	}
	p.Mix = NewMix(p.Ops)
	if p.Watchers, es = compileWatchers(cfg); len(es) > 0 {
		return nil, config.WithFile(es, cfg.Source)
	}
	return p, nil
}

func appendErr(es config.Errors, err error) config.Errors {
	switch e := err.(type) {
	case config.Errors:
		return append(es, e...)
	case *config.Error:
		return append(es, e)
	}
	return append(es, &config.Error{Kind: config.Invalid, Msg: err.Error()})
}

// collectionByRef finds a compiled collection by "name" or "database.name".
func (p *Plan) collectionByRef(ref string) *Collection {
	for _, c := range p.Collections {
		if ref == c.Name || ref == c.Namespace() {
			return c
		}
	}
	return nil
}
