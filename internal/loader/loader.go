// Package loader fills collections with generated documents at production
// scale: parallel unordered insertMany batches, progress reports, and
// loads that survive interruption.
//
// A load hands out keys in chunks (one insertMany each) and records on the
// server, in the collection's load Record, the key ranges it has written.
// Every document is a function of its key (generate.State.BeginDocument:
// the random source is reseeded from the key and the load's seed, and
// ObjectIds derive from the key), so redoing a chunk that an interruption
// left half-written inserts the very same documents: those already there
// fail with a duplicate-key error on _id, which a redo ignores. A resume
// therefore redoes only the chunks not recorded as done, without
// duplicates and without gaps. Templates without an _id get one derived
// from the key, for the same reason.
//
// N processes fill one collection together by each loading one part of the
// key range (Options.Part of Options.Parts); the record holds each part's
// progress.
package loader

import (
	"context"
	"fmt"
	"time"

	"github.com/mongoload/mongoload/internal/generate"
	"github.com/mongoload/mongoload/internal/workload"
)

// Inserter writes documents into a collection with one unordered
// insertMany. When some of them are already there (duplicate key on _id
// or a unique index) and nothing else failed, it returns a
// *DuplicateError counting them; the others were inserted.
type Inserter interface {
	InsertDocs(ctx context.Context, col *workload.Collection, docs [][]byte) error
}

// DuplicateError reports documents of a batch that were already in the
// collection; the rest of the batch was inserted.
type DuplicateError struct {
	Count int
	First string // the server's message for the first one
}

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("%d document(s) already in the collection (%s)", e.Count, e.First)
}

// Store keeps load Records on the server.
type Store interface {
	// ReadLoad returns the collection's load record, nil when it has none.
	ReadLoad(ctx context.Context, col *workload.Collection) (*Record, error)
	// CreateLoad makes rec the collection's load record, replacing the
	// record of generation replacing (0: there must be none), unless
	// another process changed the record first; it returns the record
	// that holds afterwards, rec or the other process's. It also counts
	// keys [0, rec.Target) as handed out in the collection's key count, so
	// that inserts of later runs never take a key of the load.
	CreateLoad(ctx context.Context, col *workload.Collection, rec *Record, replacing int64) (*Record, error)
	// SavePart records the state of one part of the load of generation
	// gen; it fails when the record is no longer that load's.
	SavePart(ctx context.Context, col *workload.Collection, gen int64, part int, ps PartState) error
	// FinishLoad marks the load of generation gen finished.
	FinishLoad(ctx context.Context, col *workload.Collection, gen int64) error
}

// Result is how a load of one collection ended.
type Result struct {
	Progress
	Target int64 // the load's target (keys [0, Target))
	Range  Range // the keys this process loads
	// Nothing: the collection already held the target.
	Nothing bool
	// PartFinished: every key of Range is written.
	PartFinished bool
	// LoadFinished: every part is finished, the collection holds keys
	// [0, Target).
	LoadFinished bool
}

// Load fills col to o.Target documents, or its part of them. It returns
// when the part is written, when ctx ends (after the inserts in flight,
// with ctx's error) or at the first insert that fails for good. Either way
// the written ranges are recorded, so that Load with Resume continues.
func Load(ctx context.Context, ins Inserter, store Store, col *workload.Collection, o Options) (Result, error) {
	o = o.withDefaults()
	res := Result{Progress: Progress{Collection: col.Namespace(), Part: o.Part, Parts: o.Parts}}
	if o.Part < 0 || o.Part >= o.Parts {
		return res, fmt.Errorf("part %d of %d does not exist", o.Part, o.Parts)
	}
	rec, act, err := begin(ctx, store, col, o)
	if err != nil {
		return res, err
	}
	if act == actNothing {
		res.Nothing, res.PartFinished, res.LoadFinished, res.Final = true, true, true, true
		_, res.Target = col.Keys.Bounds()
		return res, nil
	}
	res.Target, res.Range = rec.Target, rec.PartRange(o.Part)
	// The load's keys are taken: inserts after it start at its target.
	if first, end := col.Keys.Bounds(); end < rec.Target {
		col.Keys.Reset(first, rec.Target-first)
	}
	if act != actPartDone {
		res.Progress, err = newPartRun(store, col, rec, o).run(ctx, ins)
		if err != nil {
			return res, err
		}
	} else {
		res.Total, res.Already, res.Final = res.Range.Len(), res.Range.Len(), true
	}
	res.PartFinished = true
	res.LoadFinished, err = finishLoad(ctx, store, col, rec.Generation)
	return res, err
}

// begin reads the collection's record and decides; a new load creates
// its record, and a race with another process creating one is decided
// again with the winner's record.
func begin(ctx context.Context, store Store, col *workload.Collection, o Options) (*Record, action, error) {
	for range 3 {
		rec, err := store.ReadLoad(ctx, col)
		if err != nil {
			return nil, 0, fmt.Errorf("read the load state of %s: %w", col.Namespace(), err)
		}
		_, base := col.Keys.Bounds()
		act, err := decide(rec, request{ns: col.Namespace(), base: base, target: o.Target, part: o.Part, parts: o.Parts, resume: o.Resume})
		if err != nil || act != actCreate {
			return rec, act, err
		}
		now := o.Now()
		fresh := &Record{Generation: now.UnixNano(), Base: base, Target: o.Target, Partitions: o.Parts,
			Seed: o.RandomSeed, Epoch: generate.LoadEpoch(o.RandomSeed), Created: now.UTC(), Parts: map[int]PartState{}}
		var replacing int64
		if rec != nil {
			replacing = rec.Generation
		}
		won, err := store.CreateLoad(ctx, col, fresh, replacing)
		if err != nil {
			return nil, 0, fmt.Errorf("record the load of %s: %w", col.Namespace(), err)
		}
		if won != nil && won.Generation == fresh.Generation {
			return won, actJoin, nil
		}
	}
	return nil, 0, fmt.Errorf("%w: %s: another process keeps starting loads of this collection with other settings", ErrConflict, col.Namespace())
}

// finishLoad marks the load finished once every part is, and reports
// whether it is. Each part records its end before it looks, so of two
// parts ending together at least one sees both ends.
func finishLoad(ctx context.Context, store Store, col *workload.Collection, gen int64) (bool, error) {
	ctx, cancel := saveContext(ctx)
	defer cancel()
	rec, err := store.ReadLoad(ctx, col)
	if err != nil {
		return false, fmt.Errorf("read the load state of %s: %w", col.Namespace(), err)
	}
	if rec == nil || rec.Generation != gen || !rec.AllFinished() {
		return false, nil
	}
	if !rec.Finished {
		if err := store.FinishLoad(ctx, col, gen); err != nil {
			return false, fmt.Errorf("record the end of the load of %s: %w", col.Namespace(), err)
		}
	}
	return true, nil
}

// saveContext outlives an interruption: the state must be recorded even
// when the user pressed Ctrl-C.
func saveContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
}
