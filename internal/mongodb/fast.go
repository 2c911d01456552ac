package mongodb

import (
	"context"
	"errors"
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
	row   *fastRow // the kind's command (kinds.go)
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

func newFastOp(l *lower, op *workload.Op, rp *readpref.ReadPref, wc *writeconcern.WriteConcern, projection, sort []byte) *fastOp {
	f := &fastOp{low: l, op: op, db: op.Collection.Database, coll: op.Collection.Name, rp: rp, rc: l.readConcern,
		wc: wc, projection: projection, sort: sort, retry: driver.RetryNone}
	if f.rp == nil {
		f.rp = l.readPref
	}
	if f.wc == nil {
		f.wc = l.writeConcern
	}
	f.row = rowOf(op.Kind).fast
	f.name = f.row.name
	switch {
	case !op.Kind.Writes():
		if l.retryReads {
			f.retry = driver.RetryOncePerCommand
		}
	case f.row.many:
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
	c.batch = driver.Batches{Identifier: f.row.batch, Documents: c.one[:], Ordered: &ordered}
	var err error
	if c.one[0], err = f.row.statement(c); err != nil {
		sess.EndSession()
		return metrics.Docs{}, err
	}
	op.Batches = &c.batch
	err = op.Execute(ctx)
	sess.EndSession()
	var wce driver.WriteCommandError
	switch {
	case f.row.inserts:
		c.d = metrics.Docs{Inserted: 1} // the API path's count, error or not
	case errors.Is(err, driver.ErrUnacknowledgedWrite):
		// the public API reports an unacknowledged write as no result
		return metrics.Docs{}, nil
	case err != nil && (!errors.As(err, &wce) || !f.row.many):
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
