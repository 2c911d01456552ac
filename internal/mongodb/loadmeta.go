package mongodb

import (
	"context"
	"errors"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/mongo/writeconcern"

	"github.com/mongoload/mongoload/internal/workload"
)

// The driver's side of the load records (internal/loader.Meta): the loader
// decides what a record holds, the client reads and writes the meta
// collection's documents. Writes are acknowledged by a majority where
// there is one, so that a record survives a failover as well as the
// documents it describes.

// loadRecordID is the _id of a collection's load record in the meta
// collection: "$" cannot start a collection name, so it never meets a
// collection's own mark.
func loadRecordID(collection string) string { return "$load:" + collection }

// LoadRecordID is the _id of the load record of the collection named
// collection (loader.Meta).
func (cl *Client) LoadRecordID(collection string) string { return loadRecordID(collection) }

var majority = options.Collection().SetWriteConcern(writeconcern.Majority())

func (cl *Client) loadMeta(database string) *mongo.Collection {
	return cl.c.Database(database).Collection(MetaCollection, majority)
}

// FindMeta decodes the meta document id of database into out; false when
// there is none (loader.Meta).
func (cl *Client) FindMeta(ctx context.Context, database, id string, out any) (bool, error) {
	err := cl.loadMeta(database).FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(out)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return false, nil
	}
	return err == nil, err
}

// InsertMeta inserts doc into database's meta collection; false when a
// document with its _id is there (loader.Meta).
func (cl *Client) InsertMeta(ctx context.Context, database string, doc any) (bool, error) {
	_, err := cl.loadMeta(database).InsertOne(ctx, doc)
	if mongo.IsDuplicateKeyError(err) {
		return false, nil
	}
	return err == nil, err
}

// ReplaceMeta replaces the meta document filter matches; false when none
// matched (loader.Meta).
func (cl *Client) ReplaceMeta(ctx context.Context, database string, filter, doc any) (bool, error) {
	res, err := cl.loadMeta(database).ReplaceOne(ctx, filter, doc)
	if err != nil {
		return false, err
	}
	return res.MatchedCount > 0, nil
}

// UpdateMeta updates the meta document filter matches; false when none
// matched (loader.Meta).
func (cl *Client) UpdateMeta(ctx context.Context, database string, filter, update any) (bool, error) {
	res, err := cl.loadMeta(database).UpdateOne(ctx, filter, update)
	if err != nil {
		return false, err
	}
	return res.MatchedCount > 0, nil
}

// RaiseLoadKeys counts keys [0, end) of col as handed out in its mark
// (loader.Meta); a collection mongoload did not create has no mark, and
// the update matches nothing.
func (cl *Client) RaiseLoadKeys(ctx context.Context, col *workload.Collection, end int64) error {
	return raiseKeys(ctx, cl.loadMeta(col.Database), col.Name, end)
}

// raiseKeys records in the mark of collection name, in meta, that keys
// [0, end) are handed out. $max: concurrent runs never move it back.
func raiseKeys(ctx context.Context, meta *mongo.Collection, name string, end int64) error {
	_, err := meta.UpdateOne(ctx, bson.D{{Key: "_id", Value: name}}, bson.D{{Key: "$max", Value: bson.D{{Key: "keys", Value: end}}}})
	return err
}
