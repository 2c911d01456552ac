package mongodb

import (
	"context"
	"errors"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/description"

	"github.com/mongoload/mongoload/internal/metrics"
)

// fastRow is how the lower layer sends one kind: the command and its
// fields as the public API writes them, and how its reply is read.
type fastRow struct {
	name string // the command ({name: collection} first), also for the driver's logs
	// fields appends a read's own fields; a write has only ordered: true
	// beside its one statement.
	fields func(c *call, dst []byte) []byte
	// batch names a write's one statement in the command ("documents",
	// "updates", "deletes"); statement builds it. A read has neither.
	batch     string
	statement func(c *call) (bsoncore.Document, error)
	// response reads the reply into c.d; nil reads nothing.
	response func(c *call, resp bsoncore.Document, info driver.ResponseInfo) error
	// many: a multi-document write. The public API never retries it and
	// keeps its result beside its write errors.
	many bool
	// inserts: counted as one document inserted, error or not, as the
	// public API's path counts an insert.
	inserts bool
}

// command appends the command's own fields; the Operation adds lsid,
// txnNumber, $clusterTime, $db, the concerns and $readPreference.
func (c *call) command(dst []byte, _ description.SelectedServer) ([]byte, error) {
	row := c.f.row
	dst = bsoncore.AppendStringElement(dst, row.name, c.f.coll)
	if row.batch != "" {
		return bsoncore.AppendBooleanElement(dst, "ordered", true), nil
	}
	return row.fields(c, dst), nil
}

func findFields(c *call, dst []byte) []byte    { return c.appendFind(dst, false) }
func findOneFields(c *call, dst []byte) []byte { return c.appendFind(dst, true) }

// appendFind writes a find's fields in the public API's order; findOne
// is a find of limit 1 in a single batch.
func (c *call) appendFind(dst []byte, one bool) []byte {
	f, r := c.f, c.r
	dst = bsoncore.AppendDocumentElement(dst, "filter", r.Filter)
	proj, sort, limit := f.projection, f.sort, f.op.Limit
	if !f.op.StaticOptions {
		proj, sort = r.Projection, r.Sort
		if f.op.LimitGen != nil {
			limit = r.Limit
		}
	}
	if one {
		limit = 1
	}
	if limit > 0 {
		dst = bsoncore.AppendInt64Element(dst, "limit", limit)
	}
	if proj != nil {
		dst = bsoncore.AppendDocumentElement(dst, "projection", proj)
	}
	if one {
		dst = bsoncore.AppendBooleanElement(dst, "singleBatch", true)
	}
	if sort != nil {
		dst = bsoncore.AppendDocumentElement(dst, "sort", sort)
	}
	return dst
}

// insertStatement is the document to insert, with an _id first.
func insertStatement(c *call) (bsoncore.Document, error) { return withID(c.r.Docs[0]), nil }

// updateStatement and replaceStatement refuse what the public API refuses
// before sending (mongo.go, ensureDollarKey and ensureNoDollarKey).
func updateStatement(c *call) (bsoncore.Document, error) {
	first, err := bsoncore.Document(c.r.Update).IndexErr(0)
	if err != nil {
		return nil, errors.New("update document must have at least one element")
	}
	if !strings.HasPrefix(first.Key(), "$") {
		return nil, errors.New("update document must contain key beginning with '$'")
	}
	return c.writeStatement(c.r.Update), nil
}

func replaceStatement(c *call) (bsoncore.Document, error) {
	u := c.r.Docs[0]
	if first, err := bsoncore.Document(u).IndexErr(0); err == nil && strings.HasPrefix(first.Key(), "$") {
		return nil, errors.New("replacement document cannot contain keys beginning with '$'")
	}
	return c.writeStatement(u), nil
}

// writeStatement is {q, u, multi, upsert} as the public API writes it.
func (c *call) writeStatement(u []byte) bsoncore.Document {
	idx, doc := bsoncore.AppendDocumentStart(c.buf[:0])
	doc = bsoncore.AppendDocumentElement(doc, "q", c.r.Filter)
	doc = bsoncore.AppendDocumentElement(doc, "u", u)
	if c.f.row.many {
		doc = bsoncore.AppendBooleanElement(doc, "multi", true)
	}
	doc = bsoncore.AppendBooleanElement(doc, "upsert", c.f.op.Upsert)
	doc, _ = bsoncore.AppendDocumentEnd(doc, idx)
	c.buf = doc
	return doc
}

// deleteStatement is {q, limit}: limit 1 deletes one document, 0 all.
func deleteStatement(c *call) (bsoncore.Document, error) {
	limit := int32(1)
	if c.f.row.many {
		limit = 0
	}
	idx, doc := bsoncore.AppendDocumentStart(c.buf[:0])
	doc = bsoncore.AppendDocumentElement(doc, "q", c.r.Filter)
	doc = bsoncore.AppendInt32Element(doc, "limit", limit)
	doc, _ = bsoncore.AppendDocumentEnd(doc, idx)
	c.buf = doc
	return doc, nil
}

// withID gives doc an _id first if it has none, as the public API does
// before sending an insert (the server would make one too, but the
// document sent would differ).
func withID(doc []byte) bsoncore.Document {
	if _, err := bsoncore.Document(doc).LookupErr("_id"); err == nil {
		return doc
	}
	idx, out := bsoncore.AppendDocumentStart(make([]byte, 0, len(doc)+17))
	out = bsoncore.AppendObjectIDElement(out, "_id", bson.NewObjectID())
	out = append(out, doc[4:len(doc)-1]...)
	out, _ = bsoncore.AppendDocumentEnd(out, idx)
	return out
}

// response reads what the server did into c.d, by the kind's row.
func (c *call) response(_ context.Context, resp bsoncore.Document, info driver.ResponseInfo) error {
	if read := c.f.row.response; read != nil {
		return read(c, resp, info)
	}
	return nil
}

// cursorResponse reads a find's documents, and whether a cursor is left
// to drain. The cursor's fields are read in place: the driver's
// NewCursorResponse lists every element (allocations) and is needed only
// for a cursor left open, to fetch its next batches.
func cursorResponse(c *call, resp bsoncore.Document, info driver.ResponseInfo) error {
	cur, ok := resp.Lookup("cursor").DocumentOK()
	if !ok {
		return errors.New("find reply without a cursor document")
	}
	batch, _ := cur.Lookup("firstBatch").ArrayOK()
	n := countElements(batch)
	c.d = shaped(metrics.Docs{Returned: n}, n)
	if id, _ := cur.Lookup("id").Int64OK(); id != 0 {
		var err error
		c.more = true
		c.cursor, err = driver.NewCursorResponse(cur, info)
		return err
	}
	return nil
}

func deleteResponse(c *call, resp bsoncore.Document, _ driver.ResponseInfo) error {
	n, _ := resp.Lookup("n").AsInt64OK()
	c.d = shaped(metrics.Docs{Deleted: n}, n)
	return nil
}

func updateResponse(c *call, resp bsoncore.Document, _ driver.ResponseInfo) error {
	n, _ := resp.Lookup("n").AsInt64OK()
	mod, _ := resp.Lookup("nModified").AsInt64OK()
	var up int64
	if arr, ok := resp.Lookup("upserted").ArrayOK(); ok {
		vals, _ := arr.Values()
		up = int64(len(vals))
	}
	// n counts the upserted documents too; the public API's MatchedCount
	// is n less them.
	c.d = shaped(metrics.Docs{Matched: n - up, Modified: mod, Upserted: up}, n)
	return nil
}

// countElements counts the elements of a BSON array or document without
// listing them.
func countElements(b []byte) int64 {
	if len(b) < 5 {
		return 0
	}
	rest := b[4 : len(b)-1]
	var n int64
	for len(rest) > 0 {
		var ok bool
		if _, rest, ok = bsoncore.ReadElement(rest); !ok {
			break
		}
		n++
	}
	return n
}
