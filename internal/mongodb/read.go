package mongodb

import (
	"context"
	"errors"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// The driver's side of the checks that read a database after a run
// (internal/verify.Reader): verify decides what to read and what the
// documents mean; the client reads them.

// InSnapshot calls read inside a snapshot session, so every read sees one
// snapshot of the data, and reports true; when the server refuses one (a
// standalone, an old version: a server error) it calls read again without,
// and reports false (verify.Reader).
func (cl *Client) InSnapshot(ctx context.Context, read func(context.Context) error) (bool, error) {
	sess, err := cl.c.StartSession(options.Session().SetSnapshot(true))
	if err == nil {
		defer sess.EndSession(ctx)
		err := read(mongo.NewSessionContext(ctx, sess))
		var se mongo.ServerError
		if err == nil || !errors.As(err, &se) {
			return true, err
		}
	}
	return false, read(ctx)
}

// AggregateEach runs pipeline on database.collection, with disk use
// allowed, and calls each with every document it returns (verify.Reader).
func (cl *Client) AggregateEach(ctx context.Context, database, collection string, pipeline any, each func(bson.Raw) error) error {
	c := cl.c.Database(database).Collection(collection)
	cur, err := c.Aggregate(ctx, pipeline, options.Aggregate().SetAllowDiskUse(true))
	if err != nil {
		return err
	}
	return eachDocument(ctx, cur, each)
}

// FindEach calls each with every document of database.collection, with
// the fields of projection, read in batches of 10,000 (verify.Reader).
func (cl *Client) FindEach(ctx context.Context, database, collection string, projection any, each func(bson.Raw) error) error {
	c := cl.c.Database(database).Collection(collection)
	cur, err := c.Find(ctx, bson.D{}, options.Find().SetProjection(projection).SetBatchSize(10000))
	if err != nil {
		return err
	}
	return eachDocument(ctx, cur, each)
}

// CountDocuments counts the documents of database.collection that filter
// matches (verify.Reader).
func (cl *Client) CountDocuments(ctx context.Context, database, collection string, filter any) (int64, error) {
	return cl.c.Database(database).Collection(collection).CountDocuments(ctx, filter)
}

// HasField reports whether some document of database.collection has
// field (a dotted path), as setup's own read (SetupComment).
func (cl *Client) HasField(ctx context.Context, database, collection, field string) (bool, error) {
	filter := bson.D{{Key: field, Value: bson.D{{Key: "$exists", Value: true}}}}
	err := cl.c.Database(database).Collection(collection).FindOne(ctx, filter, options.FindOne().SetProjection(bson.D{{Key: "_id", Value: 1}}).SetComment(SetupComment)).Err()
	if errors.Is(err, mongo.ErrNoDocuments) {
		return false, nil
	}
	return err == nil, err
}

// eachDocument calls each with the cursor's documents, then closes it.
func eachDocument(ctx context.Context, cur *mongo.Cursor, each func(bson.Raw) error) error {
	defer cur.Close(ctx)
	for cur.Next(ctx) {
		if err := each(cur.Current); err != nil {
			return err
		}
	}
	return cur.Err()
}
