package mongodb

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/mongoload/mongoload/internal/dbcommand"
	"github.com/mongoload/mongoload/internal/workload"
)

// MetaCollection is where mongoload marks, in each database it uses, the
// collections it created and how many keys it has handed out in them. A
// collection without a mark was not created by mongoload, and is only
// written to when the user says so.
const MetaCollection = dbcommand.MetaCollection

// SetupOptions says what Prepare may do to the server.
type SetupOptions struct {
	Create        bool // create missing collections and the indexes
	Drop          bool // drop the workload's collections first (the user asked)
	AllowExisting bool // write to collections mongoload did not create
	Workload      string
	// SkipIndexes leaves the indexes for later (a load that builds them
	// once the data is in: CreateIndexes).
	SkipIndexes bool
	// CreateIndexes builds the workload's missing indexes on collections
	// that existed before the run too (--create-indexes: asked in words).
	CreateIndexes bool
	// OwnIndexes builds the workload's indexes on a collection mongoload
	// created before this run too (a resumed load, one part of a
	// partitioned load: the same load that created it).
	OwnIndexes bool
	// Fill says, for a collection that seeding or loading will insert
	// into, what will ("seeding to 50 documents would insert into it");
	// "" or nil when nothing will. holds is the collection's key count
	// now. Those are writes, under the ownership rule (ownership.go).
	Fill func(col *workload.Collection, holds int64) string
}

// ErrNotOurs means the workload would write to a collection mongoload did not create.
var ErrNotOurs = errors.New("collection not created by mongoload")

// Prepare makes every collection of the plan ready and loads its key space.
// It returns one-line notices (a refused hashed index, an ignored shard key).
// The ownership rule is applied to every collection the plan touches
// (pipelines' targets included) before anything is dropped, created or
// written, so a refusal leaves the server as it was.
func (cl *Client) Prepare(ctx context.Context, plan *workload.Plan, o SetupOptions) ([]string, error) {
	sharded, err := cl.Sharded(ctx)
	if err != nil {
		return nil, fmt.Errorf("ask the server for its topology: %w", err)
	}
	var states []*colState
	for _, col := range plan.AllCollections() {
		st, err := cl.inspect(ctx, col, o)
		if err != nil {
			return nil, err
		}
		states = append(states, st)
	}
	var notices []string
	for _, st := range states {
		n, err := cl.apply(ctx, st, o, sharded)
		notices = append(notices, n...)
		if err != nil {
			return notices, err
		}
	}
	return notices, nil
}

// CheckSetup applies the ownership rule to every collection of plan, as
// Prepare would before its first change, and changes nothing.
func (cl *Client) CheckSetup(ctx context.Context, plan *workload.Plan, o SetupOptions) error {
	for _, col := range plan.AllCollections() {
		if _, err := cl.inspect(ctx, col, o); err != nil {
			return err
		}
	}
	return nil
}

type metaDoc struct {
	ID        string    `bson:"_id"`
	CreatedBy string    `bson:"createdBy"`
	CreatedAt time.Time `bson:"createdAt"`
	Workload  string    `bson:"workload"`
	Keys      int64     `bson:"keys"`
}

// colState is what setup found of one collection, and what the ownership
// rule decided for it, before any change.
type colState struct {
	col    *workload.Collection
	exists bool // and stays: not dropped
	meta   metaDoc
	own    ownership
	notice string // the key count differs from the record
}

// inspect reads (never writes) what the server holds of col and applies
// the ownership rule to it. A collection --drop will drop is recreated, so
// it counts as mongoload's.
func (cl *Client) inspect(ctx context.Context, col *workload.Collection, o SetupOptions) (*colState, error) {
	st := &colState{col: col}
	var err error
	if o.Drop {
		st.notice, err = cl.checkDropKind(ctx, col)
	} else {
		st.exists, err = cl.collectionExists(ctx, col)
	}
	if err != nil {
		return nil, err
	}
	if !st.exists && !o.Create {
		return nil, fmt.Errorf("collection %s does not exist: run with setup enabled (the default) or --seed", col.Namespace())
	}
	ours := !st.exists
	if st.exists {
		if ours, err = cl.readMeta(ctx, col, &st.meta); err != nil {
			return nil, err
		}
	}
	if st.exists && !ours {
		// Someone else's data: assume keys 0..n-1, as a previous load would have written.
		n, err := cl.c.Database(col.Database).Collection(col.Name).EstimatedDocumentCount(ctx)
		if err != nil {
			return nil, fmt.Errorf("count %s: %w", col.Namespace(), err)
		}
		st.meta.Keys = n
	}
	if st.exists {
		if err := cl.checkKind(ctx, col); err != nil {
			return nil, err
		}
		held, err := cl.keysHeld(ctx, col, st.meta.Keys)
		if err != nil {
			return nil, err
		}
		if held > st.meta.Keys {
			st.notice = keysNotice(col, st.meta.Keys, held)
			st.meta.Keys = held
		}
	}
	var fill string
	if o.Fill != nil && !col.OutputOnly {
		fill = o.Fill(col, st.meta.Keys)
	}
	st.own, err = decideOwnership(col, ours, st.exists, o, fill)
	return st, err
}

// readMeta reads col's record in its database's mongoload_meta into m,
// and says whether there is one: whether mongoload created col.
func (cl *Client) readMeta(ctx context.Context, col *workload.Collection, m *metaDoc) (bool, error) {
	meta := cl.c.Database(col.Database).Collection(MetaCollection)
	err := meta.FindOne(ctx, bson.D{{Key: "_id", Value: col.Name}}).Decode(m)
	if err != nil && !errors.Is(err, mongo.ErrNoDocuments) {
		return false, fmt.Errorf("read %s.%s: %w", col.Database, MetaCollection, err)
	}
	return err == nil, nil
}

// apply makes one inspected collection ready: drops it when asked,
// creates and marks it, creates its indexes and shards it as the rule
// decided.
func (cl *Client) apply(ctx context.Context, st *colState, o SetupOptions, sharded bool) ([]string, error) {
	col := st.col
	db := cl.c.Database(col.Database)
	meta := db.Collection(MetaCollection)
	if o.Drop {
		if err := db.Collection(col.Name).Drop(ctx); err != nil {
			return nil, fmt.Errorf("drop %s: %w", col.Namespace(), err)
		}
		forget := bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: bson.A{col.Name, loadRecordID(col.Name)}}}}}
		if _, err := meta.DeleteMany(ctx, forget); err != nil {
			return nil, fmt.Errorf("forget %s in %s.%s: %w", col.Namespace(), col.Database, MetaCollection, err)
		}
	}
	if !st.exists && !col.LeaveMissing {
		st.meta = metaDoc{ID: col.Name, CreatedBy: "mongoload", CreatedAt: time.Now().UTC(), Workload: o.Workload}
		if err := createMarked(ctx, db, col, st.meta); err != nil {
			return nil, err
		}
	}
	cl.setRights(col.Namespace(), rights{writable: st.own.writable,
		index: o.Create && (!st.exists || o.CreateIndexes || o.OwnIndexes && st.own.ours)})
	col.Keys.Reset(0, st.meta.Keys)
	var notices []string
	if st.notice != "" {
		notices = append(notices, st.notice)
	}
	switch {
	case st.own.index:
		n, err := cl.createIndexes(ctx, col, sharded)
		notices = append(notices, n...)
		if err != nil {
			return notices, err
		}
	case st.exists:
		n, err := cl.missingNotice(ctx, col)
		if n != "" {
			notices = append(notices, n)
		}
		if err != nil {
			return notices, err
		}
	}
	notice, err := cl.shardCollection(ctx, col, sharded, st.own)
	if notice != "" {
		notices = append(notices, notice)
	}
	return notices, err
}

// createMarked marks col as mongoload's, then creates it. The mark comes
// first because the processes of one partitioned run (the pods of an
// Indexed Job, started in the same second) set up the same collection at
// once: one that finds the collection must find the mark too, or it takes
// its own run's collection for someone else's and refuses to write. So a
// collection that another process created after setup looked is taken as
// created by the run (NamespaceExists): the mark was written, here or by
// that process. Only a creation by something other than mongoload in the
// milliseconds between setup's look and its create would be taken so too;
// createCollection offers no "create it as mine unless it exists". A
// refused create takes its mark back.
func createMarked(ctx context.Context, db *mongo.Database, col *workload.Collection, m metaDoc) error {
	meta := db.Collection(MetaCollection)
	id := bson.D{{Key: "_id", Value: col.Name}}
	if _, err := meta.ReplaceOne(ctx, id, m, options.Replace().SetUpsert(true)); err != nil {
		return fmt.Errorf("mark %s as created by mongoload: %w", col.Namespace(), err)
	}
	err := db.CreateCollection(ctx, col.Name, createOptions(col))
	if err == nil || hasCode(err, codeNamespaceExists) {
		return nil
	}
	if _, derr := meta.DeleteOne(ctx, id); derr != nil {
		return fmt.Errorf("%w (and its mark in %s.%s stays: %v)", createError(col, err), col.Database, MetaCollection, derr)
	}
	return createError(col, err)
}

func (cl *Client) collectionExists(ctx context.Context, col *workload.Collection) (bool, error) {
	names, err := cl.c.Database(col.Database).ListCollectionNames(ctx, bson.D{{Key: "name", Value: col.Name}})
	if err != nil {
		return false, fmt.Errorf("list collections of %s: %w", col.Database, err)
	}
	return len(names) > 0, nil
}

// SaveKeys records how many keys the run has handed out, so the next run's
// reads draw from keys that exist. $max: concurrent runs never move it back.
func (cl *Client) SaveKeys(ctx context.Context, plan *workload.Plan) error {
	for _, col := range plan.Collections {
		if !cl.isOwned(col.Namespace()) {
			continue // no mongoload_meta beside someone else's collection
		}
		end := col.Keys.PhysicalEnd()
		if end == 0 {
			continue // no key handed out (a replay's collections): nothing to record, and no mongoload_meta written beside them
		}
		if err := raiseKeys(ctx, cl.c.Database(col.Database).Collection(MetaCollection), col.Name, end); err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("the key count of %s was not recorded: the server did not answer in time; the next run finds where the keys end in the collection itself", col.Namespace())
			}
			return fmt.Errorf("record the key count of %s: %w", col.Namespace(), err)
		}
	}
	return nil
}
