package workload

import (
	"fmt"
	"slices"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/dbcommand"
	"github.com/mongoload/mongoload/internal/generate"
)

// Output is a collection an aggregation pipeline writes into through $out
// or $merge. Such writes are writes like any other: the ownership rule
// (mongodb/ownership.go) decides them before the run, so every target must
// be fixed in the workload, never drawn by a generator.
type Output struct {
	Op         string // the operation whose pipeline writes
	Stage      string // "$out" or "$merge"
	Collection *Collection
}

// Describe says what writes where: `operation "copy" writes into d.c through $out`.
func (o Output) Describe() string {
	return fmt.Sprintf("operation %q writes into %s through %s", o.Op, o.Collection.Namespace(), o.Stage)
}

// pipelineOutputs lists the namespaces the stages of a pipeline write
// into (dbcommand.WritingStages; a recorded pipeline's are read by
// dbcommand.PipelineTargets), in the forms the server takes:
//
//	{$out: "c"}  {$out: {db: "d", coll: "c"}}
//	{$merge: "c"}  {$merge: {into: "c"}}  {$merge: {into: {db: "d", coll: "c"}}}
//
// db is the database the operation runs in, where a target names none.
func pipelineOutputs(pipeline config.Value, db string) ([]Output, error) {
	var outs []Output
	for _, stage := range pipeline.Items {
		for _, f := range stage.Fields {
			target := f.Value
			if !slices.Contains(dbcommand.WritingStages, f.Key) {
				continue
			}
			if f.Key == "$merge" {
				if target.Kind == config.KindDoc {
					into, ok := target.Param("into")
					if !ok {
						return nil, config.Errorf(config.Invalid, target.Line, "$merge needs into: the collection it writes to")
					}
					target = into
				}
			}
			d, c, err := namespaceOf(target, db, f.Key)
			if err != nil {
				return nil, err
			}
			outs = append(outs, Output{Stage: f.Key, Collection: &Collection{Database: d, Name: c}})
		}
	}
	return outs, nil
}

// namespaceOf reads a stage's target: "c" or {db: "d", coll: "c"}.
func namespaceOf(v config.Value, db, stage string) (string, string, error) {
	fixed := fmt.Sprintf("the collection %s writes into must be written out (a name, or {db: d, coll: c}), so mongoload can check before the run that it created it", stage)
	switch v.Kind {
	case config.KindScalar:
		if s, ok := v.Scalar.(string); ok && s != "" {
			return db, s, nil
		}
	case config.KindDoc:
		d, c := db, ""
		for _, f := range v.Fields {
			if f.Key != "db" && f.Key != "coll" {
				continue // timeseries and the like
			}
			s, ok := f.Value.Scalar.(string)
			if f.Value.Kind != config.KindScalar || !ok || s == "" {
				return "", "", config.Errorf(config.Invalid, v.Line, "%s", fixed)
			}
			if f.Key == "db" {
				d = s
			} else {
				c = s
			}
		}
		if c != "" {
			return d, c, nil
		}
	}
	return "", "", config.Errorf(config.Invalid, v.Line, "%s", fixed)
}

// addOutputs records where op's pipeline writes: a collection of the
// workload is marked as written to; any other becomes one of the plan's
// Outputs, under the ownership rule like the workload's own collections.
func (p *Plan) addOutputs(op *Op, pipeline config.Value, field string) error {
	if pipeline.IsZero() {
		return nil
	}
	outs, err := pipelineOutputs(pipeline, op.Collection.Database)
	if err != nil {
		return locate(err, field+".pipeline")
	}
	for _, o := range outs {
		o.Op = op.Name
		ns := o.Collection.Namespace()
		if col := p.collectionByRef(ns); col != nil {
			o.Collection = col
		} else if prev := p.outputByNamespace(ns); prev != nil {
			o.Collection = prev
		} else {
			o.Collection.Keys = generate.NewKeySpace(0, 0)
			o.Collection.OutputOnly = true
		}
		o.Collection.Writes = true
		if o.Collection.WrittenBy == "" {
			o.Collection.WrittenBy = o.Describe()
		}
		p.Outputs = append(p.Outputs, o)
	}
	return nil
}

func (p *Plan) outputByNamespace(ns string) *Collection {
	for _, o := range p.Outputs {
		if o.Collection.Namespace() == ns {
			return o.Collection
		}
	}
	return nil
}

// AllCollections lists every collection setup prepares, each once: the
// workload's collections, then the collections only pipelines write
// into. Setup applies the ownership rule to each.
func (p *Plan) AllCollections() []*Collection {
	cols := append([]*Collection(nil), p.Collections...)
	for _, o := range p.Outputs {
		if o.Collection.OutputOnly && !containsCollection(cols, o.Collection) {
			cols = append(cols, o.Collection)
		}
	}
	return cols
}

func containsCollection(cols []*Collection, c *Collection) bool {
	for _, x := range cols {
		if x == c {
			return true
		}
	}
	return false
}
