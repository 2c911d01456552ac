// Package client is how the floor programs (bench/floor/*) send their
// operations: through the official driver, or as one OP_MSG written and
// one read per operation with no driver at all (the wire floor). The
// floors build the same filters, updates and documents either way, so
// the two differ only in what sends them; make bench runs both beside
// mongoload.
//
// The wire client is a floor, not a driver: one connection per worker,
// unauthenticated plain TCP to one server (a loopback test server), no
// server selection, retries, pooling or compression. Every command
// carries an implicit session's lsid, and every retryable write a
// txnNumber, as the driver sends them with retryable writes on (its
// default), so the server does the same work for both.
package client

import (
	"context"
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/connstring"
)

// ErrNoDocuments is a single-document operation's finding no document:
// a read that found none, an update that matched none.
var ErrNoDocuments = mongo.ErrNoDocuments

// Find is a find's fixed options; Proj and Sort are raw documents or nil.
type Find struct {
	Proj, Sort []byte
	Limit      int64
	driver     *options.FindOptionsBuilder
}

// NewFind prepares a find's options once, for both clients.
func NewFind(proj, sort []byte, limit int64) *Find {
	o := options.Find()
	if proj != nil {
		o.SetProjection(bson.Raw(proj))
	}
	if sort != nil {
		o.SetSort(bson.Raw(sort))
	}
	if limit > 0 {
		o.SetLimit(limit)
	}
	return &Find{Proj: proj, Sort: sort, Limit: limit, driver: o}
}

// Client sends one collection's operations, each waiting for its reply;
// results are drained, never decoded. A worker owns its Client.
type Client interface {
	FindOne(filter []byte) error // ErrNoDocuments when it finds none
	Find(filter []byte, o *Find) error
	UpdateOne(filter, update []byte) error // ErrNoDocuments when it matches none
	Insert(docs ...[]byte) error
	DeleteOne(filter []byte) error
	Aggregate(pipeline []byte) error
	Close() error
}

// Clients opens each worker's clients on database.collection at uri:
// kind "driver" (one mongo.Client, its default pool, shared) or "wire"
// (one connection per worker). Close closes what it opened.
type Clients struct {
	New   func() (Client, error)
	Close func()
}

// Open prepares Clients of kind on uri's database.collection.
func Open(kind, uri, database, collection string) (*Clients, error) {
	switch kind {
	case "driver":
		cl, err := mongo.Connect(options.Client().ApplyURI(uri))
		if err != nil {
			return nil, err
		}
		c := cl.Database(database).Collection(collection)
		return &Clients{
			New:   func() (Client, error) { return &driver{c: c}, nil },
			Close: func() { _ = cl.Disconnect(context.Background()) },
		}, nil
	case "wire":
		cs, err := connstring.ParseAndValidate(uri)
		if err != nil {
			return nil, err
		}
		if len(cs.Hosts) != 1 || cs.Username != "" || cs.SSL {
			return nil, fmt.Errorf("-client wire: one unauthenticated server without TLS only, not %q", uri)
		}
		return &Clients{
			New:   func() (Client, error) { return dialWire(cs.Hosts[0], database, collection) },
			Close: func() {},
		}, nil
	}
	return nil, fmt.Errorf("-client %q: want driver or wire", kind)
}

// driver is the official driver's cheapest use: raw BSON in, options
// built once, nothing decoded out.
type driver struct {
	c    *mongo.Collection
	docs []any
}

var ctx = context.Background()

func (d *driver) FindOne(filter []byte) error {
	return d.c.FindOne(ctx, bson.Raw(filter)).Err()
}

func (d *driver) Find(filter []byte, o *Find) error {
	cur, err := d.c.Find(ctx, bson.Raw(filter), o.driver)
	return drain(cur, err)
}

func (d *driver) UpdateOne(filter, update []byte) error {
	res, err := d.c.UpdateOne(ctx, bson.Raw(filter), bson.Raw(update))
	if err == nil && res.MatchedCount == 0 {
		return ErrNoDocuments
	}
	return err
}

func (d *driver) Insert(docs ...[]byte) error {
	if len(docs) == 1 {
		_, err := d.c.InsertOne(ctx, bson.Raw(docs[0]))
		return err
	}
	d.docs = d.docs[:0]
	for _, doc := range docs {
		d.docs = append(d.docs, bson.Raw(doc))
	}
	_, err := d.c.InsertMany(ctx, d.docs)
	return err
}

func (d *driver) DeleteOne(filter []byte) error {
	_, err := d.c.DeleteOne(ctx, bson.Raw(filter))
	return err
}

func (d *driver) Aggregate(pipeline []byte) error {
	return drain(d.c.Aggregate(ctx, bsoncore.Array(pipeline)))
}

func (d *driver) Close() error { return nil }

func drain(cur *mongo.Cursor, err error) error {
	if err != nil {
		return err
	}
	defer cur.Close(ctx)
	for cur.Next(ctx) {
	}
	return cur.Err()
}

// The wire client's operations, as the driver writes them: a findOne is a
// find with limit 1 and singleBatch; an insert, a single-document update
// and a delete are retryable writes.

func (w *wire) FindOne(filter []byte) error {
	i, b := w.start("find")
	b = bsoncore.AppendDocumentElement(b, "filter", filter)
	b = bsoncore.AppendInt64Element(b, "limit", 1)
	b = bsoncore.AppendBooleanElement(b, "singleBatch", true)
	reply, err := w.send(i, b, false)
	if err != nil {
		return err
	}
	if docs, _ := reply.Lookup("cursor", "firstBatch").Array().Values(); len(docs) == 0 {
		return ErrNoDocuments
	}
	return nil
}

func (w *wire) Find(filter []byte, o *Find) error {
	i, b := w.start("find")
	b = bsoncore.AppendDocumentElement(b, "filter", filter)
	if o.Sort != nil {
		b = bsoncore.AppendDocumentElement(b, "sort", o.Sort)
	}
	if o.Proj != nil {
		b = bsoncore.AppendDocumentElement(b, "projection", o.Proj)
	}
	if o.Limit > 0 {
		b = bsoncore.AppendInt64Element(b, "limit", o.Limit)
	}
	reply, err := w.send(i, b, false)
	if err != nil {
		return err
	}
	return w.drain(reply)
}

func (w *wire) UpdateOne(filter, update []byte) error {
	i, b := w.start("update")
	b = bsoncore.AppendBooleanElement(b, "ordered", true)
	u, one := bsoncore.AppendDocumentStart(w.one[:0])
	one = bsoncore.AppendDocumentElement(one, "q", filter)
	one = bsoncore.AppendDocumentElement(one, "u", update)
	w.one, _ = bsoncore.AppendDocumentEnd(one, u)
	reply, err := w.sendWith(i, b, true, "updates", [][]byte{w.one})
	if err != nil {
		return err
	}
	if n, _ := reply.Lookup("n").AsInt64OK(); n == 0 {
		return ErrNoDocuments
	}
	return nil
}

func (w *wire) Insert(docs ...[]byte) error {
	i, b := w.start("insert")
	b = bsoncore.AppendBooleanElement(b, "ordered", true)
	_, err := w.sendWith(i, b, true, "documents", docs)
	return err
}

func (w *wire) DeleteOne(filter []byte) error {
	i, b := w.start("delete")
	b = bsoncore.AppendBooleanElement(b, "ordered", true)
	d, one := bsoncore.AppendDocumentStart(w.one[:0])
	one = bsoncore.AppendDocumentElement(one, "q", filter)
	one = bsoncore.AppendInt32Element(one, "limit", 1)
	w.one, _ = bsoncore.AppendDocumentEnd(one, d)
	_, err := w.sendWith(i, b, true, "deletes", [][]byte{w.one})
	return err
}

func (w *wire) Aggregate(pipeline []byte) error {
	i, b := w.start("aggregate")
	b = bsoncore.AppendArrayElement(b, "pipeline", pipeline)
	c, b := bsoncore.AppendDocumentElementStart(b, "cursor")
	b, _ = bsoncore.AppendDocumentEnd(b, c)
	reply, err := w.send(i, b, false)
	if err != nil {
		return err
	}
	return w.drain(reply)
}

// IsNoDocuments reports whether err is a finding of nothing.
func IsNoDocuments(err error) bool { return errors.Is(err, ErrNoDocuments) }
