package mongodb

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/mongo/writeconcern"

	"github.com/mongoload/mongoload/internal/loader"
	"github.com/mongoload/mongoload/internal/workload"
)

// loadRecordID is the _id of a collection's load record in the meta
// collection: "$" cannot start a collection name, so it never meets a
// collection's own mark.
func loadRecordID(collection string) string { return "$load:" + collection }

// loadDoc is a loader.Record as stored:
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

func partDoc(ps loader.PartState) loadPartDoc {
	d := loadPartDoc{Lease: ps.Lease, Done: make([][2]int64, len(ps.Done)), Finished: ps.Finished, Updated: ps.Updated}
	for i, r := range ps.Done {
		d.Done[i] = [2]int64{r.From, r.To}
	}
	return d
}

func (d *loadDoc) record() (*loader.Record, error) {
	rec := &loader.Record{Generation: d.Generation, Base: d.Base, Target: d.Target, Partitions: d.Partitions,
		Seed: uint64(d.Seed), Epoch: uint32(d.Epoch), Created: d.Created, Finished: d.Finished, Parts: map[int]loader.PartState{}}
	for k, p := range d.Parts {
		i, err := strconv.Atoi(k)
		if err != nil || i < 0 || i >= d.Partitions {
			return nil, fmt.Errorf("%s has a part %q beyond its %d partitions", d.ID, k, d.Partitions)
		}
		rs := make([]loader.Range, len(p.Done))
		for j, r := range p.Done {
			rs[j] = loader.Range{From: r[0], To: r[1]}
		}
		rec.Parts[i] = loader.PartState{Lease: p.Lease, Done: loader.Normalize(rs), Finished: p.Finished, Updated: p.Updated}
	}
	return rec, nil
}

// LoadStore keeps load records in the meta collection of each database;
// it implements loader.Store. Its writes are acknowledged by a majority
// where there is one (w: majority), so that a record survives a failover
// as well as the documents it describes.
type LoadStore struct{ cl *Client }

// LoadStore returns the client's load record store.
func (cl *Client) LoadStore() *LoadStore { return &LoadStore{cl: cl} }

var majority = options.Collection().SetWriteConcern(writeconcern.Majority())

func (s *LoadStore) meta(col *workload.Collection) *mongo.Collection {
	return s.cl.c.Database(col.Database).Collection(MetaCollection, majority)
}

// ReadLoad implements loader.Store.
func (s *LoadStore) ReadLoad(ctx context.Context, col *workload.Collection) (*loader.Record, error) {
	var d loadDoc
	err := s.meta(col).FindOne(ctx, bson.D{{Key: "_id", Value: loadRecordID(col.Name)}}).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return d.record()
}

// CreateLoad implements loader.Store.
func (s *LoadStore) CreateLoad(ctx context.Context, col *workload.Collection, rec *loader.Record, replacing int64) (*loader.Record, error) {
	d := loadDoc{ID: loadRecordID(col.Name), Generation: rec.Generation, Base: rec.Base, Target: rec.Target, Partitions: rec.Partitions,
		Seed: int64(rec.Seed), Epoch: int64(rec.Epoch), Created: rec.Created, Parts: map[string]loadPartDoc{}}
	meta := s.meta(col)
	var err error
	if replacing == 0 {
		_, err = meta.InsertOne(ctx, d)
		if mongo.IsDuplicateKeyError(err) {
			return s.ReadLoad(ctx, col) // another process created it first
		}
	} else {
		var res *mongo.UpdateResult
		res, err = meta.ReplaceOne(ctx, bson.D{{Key: "_id", Value: d.ID}, {Key: "generation", Value: replacing}}, d)
		if err == nil && res.MatchedCount == 0 {
			return s.ReadLoad(ctx, col)
		}
	}
	if err != nil {
		return nil, err
	}
	// The load's keys are taken: later runs insert beyond them. Only a
	// collection that mongoload created has a mark to count them in.
	_, err = meta.UpdateOne(ctx, bson.D{{Key: "_id", Value: col.Name}}, bson.D{{Key: "$max", Value: bson.D{{Key: "keys", Value: rec.Target}}}})
	if err != nil {
		return nil, err
	}
	return rec, nil
}

// SavePart implements loader.Store.
func (s *LoadStore) SavePart(ctx context.Context, col *workload.Collection, gen int64, part int, ps loader.PartState) error {
	res, err := s.meta(col).UpdateOne(ctx,
		bson.D{{Key: "_id", Value: loadRecordID(col.Name)}, {Key: "generation", Value: gen}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "parts." + strconv.Itoa(part), Value: partDoc(ps)}}}})
	if err != nil {
		return err
	}
	if res.MatchedCount == 0 {
		return fmt.Errorf("the load record of %s is gone or belongs to another load (was the collection dropped, or another load started with --drop?)", col.Namespace())
	}
	return nil
}

// FinishLoad implements loader.Store.
func (s *LoadStore) FinishLoad(ctx context.Context, col *workload.Collection, gen int64) error {
	_, err := s.meta(col).UpdateOne(ctx,
		bson.D{{Key: "_id", Value: loadRecordID(col.Name)}, {Key: "generation", Value: gen}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "finished", Value: true}, {Key: "finishedAt", Value: time.Now().UTC()}}}})
	return err
}
