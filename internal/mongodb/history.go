package mongodb

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// HistoryCollection is the collection a results history keeps its entries
// in (the interface internal/history owns). Documents cross it as
// extended JSON, so its caller needs no BSON.
type HistoryCollection struct {
	cl   *Client
	coll *mongo.Collection
}

// OpenHistory connects to uri for a history store kept in database.collection.
func OpenHistory(ctx context.Context, uri, database, collection string) (*HistoryCollection, error) {
	conn := config.Connection{URI: uri, AppName: "mongoload history"}
	conn.Timeouts.ServerSelection = config.Duration(10 * time.Second)
	cl, err := Connect(ctx, conn)
	if err != nil {
		return nil, err
	}
	return &HistoryCollection{cl: cl, coll: cl.c.Database(database).Collection(collection)}, nil
}

// EnsureIndexes creates an ascending index on each list of keys (an index
// that exists already is left as it is).
func (h *HistoryCollection) EnsureIndexes(ctx context.Context, keys [][]string) error {
	var models []mongo.IndexModel
	for _, ks := range keys {
		var d bson.D
		for _, k := range ks {
			d = append(d, bson.E{Key: k, Value: 1})
		}
		models = append(models, mongo.IndexModel{Keys: d})
	}
	_, err := h.coll.Indexes().CreateMany(ctx, models)
	return err
}

// InsertJSON inserts one document given as plain JSON, its keys in their
// order and taken as they are (a result's "$regex" stays a field, not
// extended JSON's regular expression); the top-level fields named in dates
// hold RFC 3339 times, stored as dates.
func (h *HistoryCollection) InsertJSON(ctx context.Context, doc []byte, dates ...string) error {
	v, err := plainJSON(json.NewDecoder(bytes.NewReader(doc)))
	d, ok := v.(bson.D)
	if err != nil || !ok {
		return fmt.Errorf("history document: not a JSON object (%v)", err)
	}
	for i, e := range d {
		if s, isString := e.Value.(string); isString && slices.Contains(dates, e.Key) {
			if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
				d[i].Value = t
			}
		}
	}
	_, err = h.coll.InsertOne(ctx, d)
	return err
}

// plainJSON reads the next JSON value as BSON: objects as bson.D in
// their order, whole numbers as int64, others as float64.
func plainJSON(dec *json.Decoder) (any, error) {
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			a := bson.A{}
			for dec.More() {
				v, err := plainJSON(dec)
				if err != nil {
					return nil, err
				}
				a = append(a, v)
			}
			_, err := dec.Token()
			return a, err
		}
		d := bson.D{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := plainJSON(dec)
			if err != nil {
				return nil, err
			}
			d = append(d, bson.E{Key: k.(string), Value: v})
		}
		_, err := dec.Token()
		return d, err
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i, nil
		}
		return t.Float64()
	}
	return tok, nil // string, bool, nil
}

// FindJSON returns the documents filter (extended JSON) matches, sorted
// ascending by sortKey, each as relaxed extended JSON.
func (h *HistoryCollection) FindJSON(ctx context.Context, filter []byte, sortKey string) ([][]byte, error) {
	var f bson.D
	if err := bson.UnmarshalExtJSON(filter, false, &f); err != nil {
		return nil, fmt.Errorf("history filter: %w", err)
	}
	cur, err := h.coll.Find(ctx, f, options.Find().SetSort(bson.D{{Key: sortKey, Value: 1}}))
	if err != nil {
		return nil, err
	}
	defer cur.Close(ctx)
	var out [][]byte
	for cur.Next(ctx) {
		b, err := bson.MarshalExtJSON(cur.Current, false, false)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, cur.Err()
}

// Close disconnects.
func (h *HistoryCollection) Close() { h.cl.Close() }
