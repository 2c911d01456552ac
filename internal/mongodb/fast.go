package mongodb

import (
	"context"
	"errors"
	"strings"
	"sync"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/readconcern"
	"go.mongodb.org/mongo-driver/v2/mongo/readpref"
	"go.mongodb.org/mongo-driver/v2/mongo/writeconcern"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/description"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/session"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/topology"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/workload"
)

// fastOp is one operation of the plan on the lower layer: find, findOne,
// insertOne, updateOne/Many, replaceOne, deleteOne/Many, as the public API
// sends them (the same command fields, session, concerns, retry mode).
type fastOp struct {
	low   *lower
	op    *workload.Op
	db    string
	coll  string
	rp    *readpref.ReadPref
	rc    *readconcern.ReadConcern
	wc    *writeconcern.WriteConcern
	retry driver.RetryMode
	name  string // the command, for the driver's logs
	// projection and sort of a static operation, built once.
	projection, sort []byte
	calls            sync.Pool
}

// fastKinds are the kinds the fast path sends; the others keep the API.
func fastKind(k workload.Kind) bool {
	switch k {
	case workload.Find, workload.FindOne, workload.InsertOne, workload.UpdateOne, workload.UpdateMany,
		workload.ReplaceOne, workload.DeleteOne, workload.DeleteMany:
		return true
	}
	return false
}

func newFastOp(l *lower, op *workload.Op, rp *readpref.ReadPref, wc *writeconcern.WriteConcern, projection, sort []byte) *fastOp {
	f := &fastOp{low: l, op: op, db: op.Collection.Database, coll: op.Collection.Name, rp: rp, rc: l.readConcern,
		wc: wc, projection: projection, sort: sort, retry: driver.RetryNone}
	if f.rp == nil {
		f.rp = l.readPref
	}
	if f.wc == nil {
		f.wc = l.writeConcern
	}
	f.name = commandName(op.Kind)
	switch op.Kind {
	case workload.Find, workload.FindOne:
		if l.retryReads {
			f.retry = driver.RetryOncePerCommand
		}
	case workload.UpdateMany, workload.DeleteMany:
		// multi-document writes are not retryable (the public API's rule)
	default:
		if l.retryWrites {
			f.retry = driver.RetryOncePerCommand
		}
	}
	f.calls.New = func() any { c := &call{f: f}; c.cmdFn, c.respFn = c.command, c.response; return c }
	return f
}

// call is one execution's state; calls are pooled with their bound
// command and response functions, so a call allocates none of them.
type call struct {
	f      *fastOp
	r      *workload.Request
	one    [1]bsoncore.Document
	buf    []byte // the statement of an update or delete, reused
	batch  driver.Batches
	cmdFn  func([]byte, description.SelectedServer) ([]byte, error)
	respFn func(context.Context, bsoncore.Document, driver.ResponseInfo) error
	// results
	d      metrics.Docs
	cursor driver.CursorResponse
	more   bool
}

func (f *fastOp) run(ctx context.Context, r *workload.Request) (metrics.Docs, error) {
	c := f.calls.Get().(*call)
	c.r, c.d, c.more, c.cursor = r, metrics.Docs{}, false, driver.CursorResponse{}
	d, err := c.execute(ctx)
	c.r, c.one[0], c.batch, c.cursor = nil, nil, driver.Batches{}, driver.CursorResponse{}
	f.calls.Put(c)
	return d, err
}

func (c *call) execute(ctx context.Context) (metrics.Docs, error) {
	f := c.f
	l := f.low
	sess := session.NewImplicitClientSession(l.pool, [16]byte{})
	op := driver.Operation{
		CommandFn: c.cmdFn, ProcessResponseFn: c.respFn, RetryMode: &f.retry,
		Client: sess, Clock: l.clock, CommandMonitor: l.monitor, Database: f.db, Deployment: l.topo,
		ServerAPI: l.serverAPI, Timeout: l.timeout, Authenticator: l.auth, Name: f.name,
		EnableOverloadRetargeting: l.retarget,
	}
	if f.retry != driver.RetryNone || f.op.Kind.Writes() {
		op.MaxAdaptiveRetries = l.adaptiveRetries
	}
	if !f.op.Kind.Writes() {
		op.Type, op.ReadPreference, op.ReadConcern = driver.Read, f.rp, f.rc
		if !l.retryReads {
			op.MaxAdaptiveRetries = 0
		}
		err := op.Execute(ctx)
		if err != nil {
			c.d = metrics.Docs{} // as the public API: no result with the error
		} else if c.more {
			err = c.drain(ctx, sess)
		}
		sess.EndSession()
		return c.d, wrapDriverError(err)
	}
	op.Type, op.WriteConcern, op.SendAfterClusterTime = driver.Write, f.wc, true
	if !l.retryWrites {
		op.MaxAdaptiveRetries = 0
	}
	if !f.wc.Acknowledged() {
		op.Client = nil // the public API's rule: no session on unacknowledged writes
	}
	c.batch = driver.Batches{Identifier: "updates", Documents: c.one[:], Ordered: &ordered}
	switch f.op.Kind {
	case workload.InsertOne:
		c.batch.Identifier = "documents"
		c.one[0] = withID(c.r.Docs[0])
	case workload.DeleteOne, workload.DeleteMany:
		c.batch.Identifier = "deletes"
		c.one[0] = c.deleteStatement()
	default:
		var err error
		if c.one[0], err = c.updateStatement(); err != nil {
			sess.EndSession()
			return metrics.Docs{}, err
		}
	}
	op.Batches = &c.batch
	err := op.Execute(ctx)
	sess.EndSession()
	var wce driver.WriteCommandError
	switch {
	case f.op.Kind == workload.InsertOne:
		c.d = metrics.Docs{Inserted: 1} // the API path's count, error or not
	case errors.Is(err, driver.ErrUnacknowledgedWrite):
		// the public API reports an unacknowledged write as no result
		return metrics.Docs{}, nil
	case err != nil && (!errors.As(err, &wce) || !manyKind(f.op.Kind)):
		// The public API returns no result with an error, but for the
		// write errors of a multi-document write (mongo/collection.go:
		// processWriteError's rrMany against each method's expected
		// returnResult).
		c.d = metrics.Docs{}
	}
	if errors.Is(err, driver.ErrUnacknowledgedWrite) {
		err = nil
	}
	return c.d, wrapDriverError(err)
}

var ordered = true

func manyKind(k workload.Kind) bool { return k == workload.UpdateMany || k == workload.DeleteMany }

func commandName(k workload.Kind) string {
	switch k {
	case workload.Find, workload.FindOne:
		return "find"
	case workload.InsertOne:
		return "insert"
	case workload.DeleteOne, workload.DeleteMany:
		return "delete"
	}
	return "update"
}

// command appends the command's own fields; the Operation adds lsid,
// txnNumber, $clusterTime, $db, the concerns and $readPreference.
func (c *call) command(dst []byte, _ description.SelectedServer) ([]byte, error) {
	f, r := c.f, c.r
	switch f.op.Kind {
	case workload.Find, workload.FindOne:
		dst = bsoncore.AppendStringElement(dst, "find", f.coll)
		dst = bsoncore.AppendDocumentElement(dst, "filter", r.Filter)
		proj, sort, limit := f.projection, f.sort, f.op.Limit
		if !f.op.StaticOptions {
			proj, sort = r.Projection, r.Sort
			if f.op.LimitGen != nil {
				limit = r.Limit
			}
		}
		if f.op.Kind == workload.FindOne {
			limit = 1
		}
		if limit > 0 {
			dst = bsoncore.AppendInt64Element(dst, "limit", limit)
		}
		if proj != nil {
			dst = bsoncore.AppendDocumentElement(dst, "projection", proj)
		}
		if f.op.Kind == workload.FindOne {
			dst = bsoncore.AppendBooleanElement(dst, "singleBatch", true)
		}
		if sort != nil {
			dst = bsoncore.AppendDocumentElement(dst, "sort", sort)
		}
	case workload.InsertOne:
		dst = bsoncore.AppendStringElement(dst, "insert", f.coll)
		dst = bsoncore.AppendBooleanElement(dst, "ordered", true)
	case workload.DeleteOne, workload.DeleteMany:
		dst = bsoncore.AppendStringElement(dst, "delete", f.coll)
		dst = bsoncore.AppendBooleanElement(dst, "ordered", true)
	default:
		dst = bsoncore.AppendStringElement(dst, "update", f.coll)
		dst = bsoncore.AppendBooleanElement(dst, "ordered", true)
	}
	return dst, nil
}

// updateStatement is {q, u, multi, upsert} as the public API writes it,
// refusing what the public API refuses before sending (mongo.go,
// ensureDollarKey and ensureNoDollarKey).
func (c *call) updateStatement() (bsoncore.Document, error) {
	f, r := c.f, c.r
	u := r.Update
	first, err := bsoncore.Document(u).IndexErr(0)
	if f.op.Kind == workload.ReplaceOne {
		u = r.Docs[0]
		if first, err = bsoncore.Document(u).IndexErr(0); err == nil && strings.HasPrefix(first.Key(), "$") {
			return nil, errors.New("replacement document cannot contain keys beginning with '$'")
		}
	} else if err != nil {
		return nil, errors.New("update document must have at least one element")
	} else if !strings.HasPrefix(first.Key(), "$") {
		return nil, errors.New("update document must contain key beginning with '$'")
	}
	idx, doc := bsoncore.AppendDocumentStart(c.buf[:0])
	doc = bsoncore.AppendDocumentElement(doc, "q", r.Filter)
	doc = bsoncore.AppendDocumentElement(doc, "u", u)
	if f.op.Kind == workload.UpdateMany {
		doc = bsoncore.AppendBooleanElement(doc, "multi", true)
	}
	doc = bsoncore.AppendBooleanElement(doc, "upsert", f.op.Upsert)
	doc, _ = bsoncore.AppendDocumentEnd(doc, idx)
	c.buf = doc
	return doc, nil
}

// deleteStatement is {q, limit}: limit 1 deletes one document, 0 all.
func (c *call) deleteStatement() bsoncore.Document {
	limit := int32(0)
	if c.f.op.Kind == workload.DeleteOne {
		limit = 1
	}
	idx, doc := bsoncore.AppendDocumentStart(c.buf[:0])
	doc = bsoncore.AppendDocumentElement(doc, "q", c.r.Filter)
	doc = bsoncore.AppendInt32Element(doc, "limit", limit)
	doc, _ = bsoncore.AppendDocumentEnd(doc, idx)
	c.buf = doc
	return doc
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

// response reads what the server did into c.d: found documents for a
// read (and whether a cursor is left to drain), n/nModified/upserted for
// a write.
func (c *call) response(_ context.Context, resp bsoncore.Document, info driver.ResponseInfo) error {
	switch c.f.op.Kind {
	case workload.Find, workload.FindOne:
		// The cursor's fields are read in place: the driver's
		// NewCursorResponse lists every element (allocations) and is
		// needed only for a cursor left open, to fetch its next batches.
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
	case workload.InsertOne:
		// counted by execute, as the API path counts it
	case workload.DeleteOne, workload.DeleteMany:
		n, _ := resp.Lookup("n").AsInt64OK()
		c.d = shaped(metrics.Docs{Deleted: n}, n)
	default:
		n, _ := resp.Lookup("n").AsInt64OK()
		mod, _ := resp.Lookup("nModified").AsInt64OK()
		var up int64
		if arr, ok := resp.Lookup("upserted").ArrayOK(); ok {
			vals, _ := arr.Values()
			up = int64(len(vals))
		}
		// n counts the upserted documents too; the public API's
		// MatchedCount is n less them.
		c.d = shaped(metrics.Docs{Matched: n - up, Modified: mod, Upserted: up}, n)
	}
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

// drain fetches a find's further batches (getMore) as the public cursor
// does: they are part of the operation.
func (c *call) drain(ctx context.Context, sess *session.Client) error {
	l := c.f.low
	opts := driver.CursorOptions{CommandMonitor: l.monitor, ServerAPI: l.serverAPI, Authenticator: l.auth,
		EnableOverloadRetargeting: l.retarget}
	if l.retryReads {
		opts.MaxAdaptiveRetries = l.adaptiveRetries
	}
	limit := c.f.op.Limit
	if !c.f.op.StaticOptions && c.f.op.LimitGen != nil {
		limit = c.r.Limit
	}
	opts.Limit = int32(limit)
	bc, err := driver.NewBatchCursor(c.cursor, sess, l.clock, opts)
	if err != nil {
		return err
	}
	n := c.d.Returned - int64(c.cursor.FirstBatch.Count()) // Next yields the first batch again
	for bc.Next(ctx) {
		n += int64(bc.Batch().Count())
	}
	err = bc.Err()
	_ = bc.Close(context.WithoutCancel(ctx))
	c.d = shaped(metrics.Docs{Returned: n}, n)
	return err
}

// wrapDriverError turns the lower layer's errors into the public API's
// types (mongo/errors.go, wrapErrors and processWriteError), so Classify
// and the reports see the same errors whichever path sent the operation.
func wrapDriverError(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, topology.ErrTopologyClosed) {
		return mongo.ErrClientDisconnected
	}
	var wce driver.WriteCommandError
	if errors.As(err, &wce) {
		we := mongo.WriteException{Labels: wce.Labels, Raw: bson.Raw(wce.Raw)}
		if w := wce.WriteConcernError; w != nil {
			we.WriteConcernError = &mongo.WriteConcernError{Name: w.Name, Code: int(w.Code), Message: w.Message, Details: bson.Raw(w.Details), Raw: bson.Raw(w.Raw)}
		}
		for _, e := range wce.WriteErrors {
			we.WriteErrors = append(we.WriteErrors, mongo.WriteError{Index: int(e.Index), Code: int(e.Code), Message: e.Message, Details: bson.Raw(e.Details), Raw: bson.Raw(e.Raw)})
		}
		return we
	}
	var de driver.Error
	if errors.As(err, &de) {
		return mongo.CommandError{Code: de.Code, Message: de.Message, Labels: de.Labels, Name: de.Name, Wrapped: err, Raw: bson.Raw(de.Raw)}
	}
	return err
}
