package workload

import (
	"fmt"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/generate"
)

// Kind is what an operation does on the server.
type Kind uint8

// The operation kinds; "upsert" compiles to UpdateOne with Upsert set.
const (
	Find Kind = iota
	FindOne
	InsertOne
	InsertMany
	UpdateOne
	UpdateMany
	ReplaceOne
	DeleteOne
	DeleteMany
	FindOneAndUpdate
	Aggregate
	CountDocuments
	// ReadModifyWrite is a findOne then an updateOne of the same filter,
	// timed as one operation (YCSB's READ-MODIFY-WRITE).
	ReadModifyWrite
	// Transaction runs its Steps in one multi-document transaction.
	Transaction
	// Replay sends a captured command verbatim (Request.Command): mongoload
	// replay's operations, one per captured shape.
	Replay
)

var kindsByType = map[string]Kind{
	"find": Find, "findOne": FindOne, "insertOne": InsertOne, "insertMany": InsertMany,
	"updateOne": UpdateOne, "upsert": UpdateOne, "updateMany": UpdateMany, "replaceOne": ReplaceOne,
	"deleteOne": DeleteOne, "deleteMany": DeleteMany, "findOneAndUpdate": FindOneAndUpdate,
	"aggregate": Aggregate, "countDocuments": CountDocuments, "readModifyWrite": ReadModifyWrite,
}

// Writes reports whether the kind changes data.
func (k Kind) Writes() bool {
	switch k {
	case Find, FindOne, Aggregate, CountDocuments:
		return false
	}
	return true
}

// Op is one compiled operation of the mix.
type Op struct {
	Index int // position in Plan.Ops and in the metrics
	Name  string
	Type  string // as written in the workload, e.g. "upsert"
	// Config is the operation as the workload wrote it (its templates
	// before compilation), for checks that read them (MissCause).
	Config     *config.Operation
	Kind       Kind
	Weight     float64
	Collection *Collection
	Filter     *generate.Document
	Update     *generate.Document
	Projection *generate.Document
	Sort       *generate.Document
	Document   *generate.Document // inserts and replaceOne
	Pipeline   *generate.Array
	Limit      int64
	// LimitGen, when set, draws the limit of each call (Request.Limit).
	LimitGen  generate.Generator
	BatchSize int
	Upsert    bool
	// ReadPreference and WriteConcern override the connection's when set.
	ReadPreference string
	WriteConcern   *config.WriteConcern
	// StaticOptions: projection and sort are the same for every call.
	StaticOptions bool
	// AbortWrites: a replayed write is sent inside a transaction that is
	// then aborted, so that it changes nothing (ab --writes aborted).
	AbortWrites bool

	// Transactions: the let drawn once per transaction, the steps, and how
	// they run. Steps point back to their transaction through Parent.
	Let           *generate.Let
	Steps         []*Op
	Parent        *Op
	Style         string // perOperation or batched
	ReadConcern   string
	MaxCommitTime time.Duration
	// A step may abort its transaction when it matches nothing.
	AbortIfNoMatch bool
	AbortReason    string

	// Parts are a read-modify-write's read and update (ReadPart and
	// UpdatePart), which its executor times each on its own too (as YCSB
	// counts them in its READ and UPDATE measurements besides
	// READ-MODIFY-WRITE); they point back to it through Parent.
	Parts []*Op
}

// The parts of a read-modify-write, in Op.Parts order.
const (
	ReadPart = iota
	UpdatePart
)

// readModifyWriteParts returns the parts of the read-modify-write op.
func readModifyWriteParts(op *Op) []*Op {
	part := func(suffix, typ string, kind Kind) *Op {
		return &Op{Name: op.Name + "/" + suffix, Type: typ, Kind: kind, Collection: op.Collection, Parent: op}
	}
	return []*Op{ReadPart: part("read", "findOne", FindOne), UpdatePart: part("update", "updateOne", UpdateOne)}
}

func compileOp(cfg *config.Config, oc *config.Operation, i int, p *Plan) (*Op, error) {
	return compileOpIn(cfg, oc, fmt.Sprintf("operations[%d]", i), p, nil)
}

// compileOpIn compiles one operation whose templates may read vars (the let
// of the transaction it is a step of).
func compileOpIn(cfg *config.Config, oc *config.Operation, field string, p *Plan, vars []string) (*Op, error) {
	kind, ok := kindsByType[oc.Type]
	if !ok {
		return nil, config.Errorf(config.UnknownOperation, oc.Line, "unknown operation type %q", oc.Type)
	}
	col := p.collectionByRef(oc.Collection)
	if col == nil {
		return nil, config.Errorf(config.Invalid, oc.Line, "operation %q: no collection %q", oc.Name, oc.Collection)
	}
	if kind.Writes() {
		col.Writes = true
	}
	op := &Op{
		Name: oc.Name, Type: oc.Type, Config: oc, Kind: kind, Weight: oc.Weight, Collection: col,
		Limit: oc.Limit.N, BatchSize: oc.BatchSize, Upsert: oc.Upsert || oc.Type == "upsert",
		ReadPreference: oc.ReadPreference, WriteConcern: oc.WriteConcern,
		StaticOptions: staticOptions(oc),
	}
	if op.BatchSize < 1 {
		op.BatchSize = 1
	}
	if err := p.addOutputs(op, oc.Pipeline, field); err != nil {
		return nil, err
	}
	lookup := func(name string) *generate.KeySpace {
		if name == "" {
			return col.Keys
		}
		if c := p.collectionByRef(name); c != nil {
			return c.Keys
		}
		return nil
	}
	query := &generate.Env{Mode: generate.Query, Seed: cfg.Run.RandomSeed, KeySpace: lookup, Vars: vars}
	insert := &generate.Env{Mode: generate.Insert, Seed: cfg.Run.RandomSeed, KeySpace: lookup, Vars: vars}
	var err error
	compile := func(v config.Value, env *generate.Env, name string) *generate.Document {
		if err != nil || v.IsZero() {
			return nil
		}
		var d *generate.Document
		d, err = generate.CompileDocument(v, env)
		err = locateIf(err, field+"."+name)
		return d
	}
	op.Filter = compile(oc.Filter, query, "filter")
	op.Update = compile(oc.Update, query, "update")
	op.Projection = compile(oc.Projection, query, "projection")
	op.Sort = compile(oc.Sort, query, "sort")
	op.Document = compile(oc.Document, insert, "document")
	if err == nil && oc.Limit.Generated() {
		op.LimitGen, err = compileLimit(oc.Limit.Gen, query)
		err = locateIf(err, field+".limit")
	}
	if err == nil && !oc.Pipeline.IsZero() {
		op.Pipeline, err = generate.CompileArray(oc.Pipeline, query)
		err = locateIf(err, field+".pipeline")
	}
	if err != nil {
		return nil, err
	}
	if op.Document == nil && (kind == InsertOne || kind == InsertMany || kind == ReplaceOne) {
		op.Document = col.Doc
	}
	if op.Document != nil && (kind == InsertOne || kind == InsertMany) {
		// an insert's _id is mongoload's, from the worker's seeded state
		op.Document = op.Document.WithID()
	}
	if op.Filter == nil {
		op.Filter = emptyDocument
	}
	if kind == ReadModifyWrite {
		op.Parts = readModifyWriteParts(op)
	}
	return op, nil
}

var emptyDocument = mustEmpty()

func mustEmpty() *generate.Document {
	d, err := generate.CompileDocument(config.Value{Kind: config.KindDoc}, &generate.Env{})
	if err != nil {
		panic(err) // an empty document always compiles
	}
	return d
}

func locateIf(err error, field string) error {
	if err == nil {
		return nil
	}
	return locate(err, field)
}

// staticOptions reports whether projection, sort and limit hold no
// generator, so the driver options built from them can be reused for every
// call.
func staticOptions(oc *config.Operation) bool {
	return !hasGen(oc.Projection) && !hasGen(oc.Sort) && !oc.Limit.Generated()
}

// compileLimit compiles a generated limit, which must draw integers.
func compileLimit(v config.Value, env *generate.Env) (generate.Generator, error) {
	if v.Gen != "int" && v.Gen != "long" {
		return nil, config.Errorf(config.Invalid, v.Line, "a generated limit draws integers: use {$gen: int, min: 1, max: 100}, not %s", v.Gen)
	}
	return generate.Compile(v, env)
}
