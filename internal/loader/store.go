package loader

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/workload"
)

// Meta is the driver's side of the load records; internal/mongodb's Client
// implements it with driver calls only. Every call is on the meta
// collection of database, and its writes are acknowledged by a majority
// where there is one (w: majority), so that a record survives a failover
// as well as the documents it describes.
type Meta interface {
	// LoadRecordID is the _id of the load record of the collection named
	// collection (the meta collection's layout is the client's: it also
	// holds the collections' marks, and forgets both on a drop).
	LoadRecordID(collection string) string
	// FindMeta decodes the meta document with _id id into out; false when
	// there is none.
	FindMeta(ctx context.Context, database, id string, out any) (bool, error)
	// InsertMeta inserts doc; false when a document with its _id is there.
	InsertMeta(ctx context.Context, database string, doc any) (bool, error)
	// ReplaceMeta replaces the document filter matches with doc; false
	// when none matched.
	ReplaceMeta(ctx context.Context, database string, filter, doc any) (bool, error)
	// UpdateMeta applies update to the document filter matches; false when
	// none matched.
	UpdateMeta(ctx context.Context, database string, filter, update any) (bool, error)
	// RaiseLoadKeys counts keys [0, end) of col as handed out in the
	// collection's mark, when mongoload created the collection (only those
	// have a mark); it never lowers the count.
	RaiseLoadKeys(ctx context.Context, col *workload.Collection, end int64) error
}

// loadDoc is a Record as stored:
//
//	{_id: "$load:flights", generation, base, target, partitions, seed, epoch,
//	 created, finished, parts: {"0": {lease, done: [[from, to], ...], finished, updated}}}
//
// done is the compact list of key ranges written, [from, to) each.
type loadDoc struct {
	ID         string                 `bson:"_id"`
	Generation int64                  `bson:"generation"`
	Base       int64                  `bson:"base"`
	Target     int64                  `bson:"target"`
	Partitions int                    `bson:"partitions"`
	Seed       int64                  `bson:"seed"` // BSON has no unsigned integers
	Epoch      int64                  `bson:"epoch"`
	Created    time.Time              `bson:"created"`
	Finished   bool                   `bson:"finished"`
	Parts      map[string]loadPartDoc `bson:"parts"`
}

type loadPartDoc struct {
	Lease    int64      `bson:"lease"`
	Done     [][2]int64 `bson:"done"`
	Finished bool       `bson:"finished"`
	Updated  time.Time  `bson:"updated"`
}

func partDoc(ps PartState) loadPartDoc {
	d := loadPartDoc{Lease: ps.Lease, Done: make([][2]int64, len(ps.Done)), Finished: ps.Finished, Updated: ps.Updated}
	for i, r := range ps.Done {
		d.Done[i] = [2]int64{r.From, r.To}
	}
	return d
}

func (d *loadDoc) record() (*Record, error) {
	rec := &Record{Generation: d.Generation, Base: d.Base, Target: d.Target, Partitions: d.Partitions,
		Seed: uint64(d.Seed), Epoch: uint32(d.Epoch), Created: d.Created, Finished: d.Finished, Parts: map[int]PartState{}}
	for k, p := range d.Parts {
		i, err := strconv.Atoi(k)
		if err != nil || i < 0 || i >= d.Partitions {
			return nil, fmt.Errorf("%s has a part %q beyond its %d partitions", d.ID, k, d.Partitions)
		}
		rs := make([]Range, len(p.Done))
		for j, r := range p.Done {
			rs[j] = Range{From: r[0], To: r[1]}
		}
		rec.Parts[i] = PartState{Lease: p.Lease, Done: Normalize(rs), Finished: p.Finished, Updated: p.Updated}
	}
	return rec, nil
}

// MetaStore keeps load records in the meta collection of each database;
// it implements Store.
type MetaStore struct{ m Meta }

// NewStore returns the load record store over m.
func NewStore(m Meta) *MetaStore { return &MetaStore{m: m} }

// ReadLoad implements Store.
func (s *MetaStore) ReadLoad(ctx context.Context, col *workload.Collection) (*Record, error) {
	var d loadDoc
	found, err := s.m.FindMeta(ctx, col.Database, s.m.LoadRecordID(col.Name), &d)
	if err != nil || !found {
		return nil, err
	}
	return d.record()
}

// CreateLoad implements Store.
func (s *MetaStore) CreateLoad(ctx context.Context, col *workload.Collection, rec *Record, replacing int64) (*Record, error) {
	d := loadDoc{ID: s.m.LoadRecordID(col.Name), Generation: rec.Generation, Base: rec.Base, Target: rec.Target, Partitions: rec.Partitions,
		Seed: int64(rec.Seed), Epoch: int64(rec.Epoch), Created: rec.Created, Parts: map[string]loadPartDoc{}}
	var done bool
	var err error
	if replacing == 0 {
		done, err = s.m.InsertMeta(ctx, col.Database, d)
	} else {
		done, err = s.m.ReplaceMeta(ctx, col.Database, bson.D{{Key: "_id", Value: d.ID}, {Key: "generation", Value: replacing}}, d)
	}
	if err != nil {
		return nil, err
	}
	if !done {
		return s.ReadLoad(ctx, col) // another process created or replaced it first
	}
	// The load's keys are taken: later runs insert beyond them.
	if err := s.m.RaiseLoadKeys(ctx, col, rec.Target); err != nil {
		return nil, err
	}
	return rec, nil
}

// SavePart implements Store.
func (s *MetaStore) SavePart(ctx context.Context, col *workload.Collection, gen int64, part int, ps PartState) error {
	matched, err := s.m.UpdateMeta(ctx, col.Database,
		bson.D{{Key: "_id", Value: s.m.LoadRecordID(col.Name)}, {Key: "generation", Value: gen}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "parts." + strconv.Itoa(part), Value: partDoc(ps)}}}})
	if err != nil {
		return err
	}
	if !matched {
		return fmt.Errorf("the load record of %s is gone or belongs to another load (was the collection dropped, or another load started with --drop?)", col.Namespace())
	}
	return nil
}

// FinishLoad implements Store.
func (s *MetaStore) FinishLoad(ctx context.Context, col *workload.Collection, gen int64) error {
	_, err := s.m.UpdateMeta(ctx, col.Database,
		bson.D{{Key: "_id", Value: s.m.LoadRecordID(col.Name)}, {Key: "generation", Value: gen}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "finished", Value: true}, {Key: "finishedAt", Value: time.Now().UTC()}}}})
	return err
}
