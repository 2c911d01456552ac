package mongodb

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/mongo/readconcern"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/sendclock"
	"github.com/mongoload/mongoload/internal/workload"
)

// Retry causes, as counted in a transaction's outcomes.
const (
	RetryTransient     = "retry: TransientTransactionError"
	RetryUnknownCommit = "retry: UnknownTransactionCommitResult"
)

// txn runs a transaction operation: its steps inside session.WithTransaction,
// one command per step (perOperation) or the steps' writes as one client
// bulkWrite (batched, MongoDB 8.0+).
type txn struct {
	cl    *Client
	op    *workload.Op
	steps []*Executor
	opts  *options.TransactionOptionsBuilder
	// batched falls back to per-operation once the server refuses bulkWrite.
	fallback atomic.Bool
	once     sync.Once
}

func (cl *Client) newTxn(op *workload.Op) (*txn, error) {
	t := &txn{cl: cl, op: op, opts: options.Transaction()}
	if op.ReadConcern != "" {
		t.opts.SetReadConcern(&readconcern.ReadConcern{Level: op.ReadConcern})
	}
	if w := WriteConcern(op.WriteConcern); w != nil {
		t.opts.SetWriteConcern(w)
	}
	if op.ReadPreference != "" {
		rp, err := ReadPref(op.ReadPreference)
		if err != nil {
			return nil, err
		}
		t.opts.SetReadPreference(rp)
	}
	for _, st := range op.Steps {
		// Steps run with the transaction's concerns: no per-step overrides.
		e := &Executor{op: st, coll: cl.c.Database(st.Collection.Database).Collection(st.Collection.Name)}
		e.buildOptions()
		e.send = e // a step runs in the transaction's session: the public API path
		t.steps = append(t.steps, e)
	}
	return t, nil
}

// do runs one transaction. It returns nil when committed, a *workload.Abort
// when a step's own condition rolled it back, or the error that failed it.
// r.StepRuns gets every step execution; r.Retries the retries by cause.
func (t *txn) do(ctx context.Context, r *workload.Request) (metrics.Docs, error) {
	if t.op.MaxCommitTime > 0 {
		// Driver v2 dropped maxCommitTimeMS in favour of client-side
		// timeouts: the limit bounds the whole transaction from here.
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t.op.MaxCommitTime)
		defer cancel()
	}
	// One session per transaction: causal consistency would only add a read
	// concern (afterClusterTime) to the retries' first command.
	sess, err := t.cl.c.StartSession(noCausal)
	if err != nil {
		return metrics.Docs{}, err
	}
	defer sess.EndSession(context.WithoutCancel(ctx))
	clock := sendclock.From(ctx)
	commits0 := int64(0)
	if clock != nil {
		commits0 = clock.Commits()
	}
	attempts, reachedCommit := 0, 0
	batched := t.op.Style == "batched" && !t.fallback.Load()
	_, err = sess.WithTransaction(ctx, func(sc context.Context) (any, error) {
		attempts++
		var err error
		if batched {
			err = t.runBatched(sc, r)
		} else {
			err = t.runSteps(sc, r)
		}
		if err == nil {
			reachedCommit++
		}
		return nil, err
	}, t.opts)
	if attempts > 1 {
		r.Retries = addRetry(r.Retries, RetryTransient, int64(attempts-1))
	}
	if clock != nil {
		if extra := clock.Commits() - commits0 - int64(reachedCommit); extra > 0 {
			r.Retries = addRetry(r.Retries, RetryUnknownCommit, extra)
		}
	}
	if errors.Is(err, errPerOperation) {
		r.StepRuns = r.StepRuns[:0]
		return t.do(ctx, r)
	}
	if err != nil {
		return metrics.Docs{}, err
	}
	return metrics.Docs{}, nil // the steps carry the document counts
}

var noCausal = options.Session().SetCausalConsistency(false)

// errPerOperation ends a batched attempt the server could not run, so the
// transaction is run again one command per step.
var errPerOperation = errors.New("client bulkWrite unsupported")

func addRetry(m map[string]int64, cause string, n int64) map[string]int64 {
	if m == nil {
		m = make(map[string]int64, 2)
	}
	m[cause] += n
	return m
}

// runSteps sends each step as its own command, in order.
func (t *txn) runSteps(sc context.Context, r *workload.Request) error {
	for i := range t.steps {
		if err := t.runStep(sc, r, i); err != nil {
			return err
		}
	}
	return nil
}

// runStep sends step i as its own command and records it; a step that must
// match and matched nothing aborts the transaction.
func (t *txn) runStep(sc context.Context, r *workload.Request, i int) error {
	e := t.steps[i]
	start := time.Now()
	d, err := e.do(sc, &r.Steps[i])
	r.StepRuns = append(r.StepRuns, workload.StepRun{Op: e.op, Latency: time.Since(start), Err: err, Docs: d})
	if err != nil {
		return err
	}
	if e.op.AbortIfNoMatch && d.Empty != 0 {
		return &workload.Abort{Reason: e.op.AbortReason}
	}
	return nil
}

// runBatched runs the reads one by one, then every write in one ordered
// client bulkWrite, and aborts when a conditional write matched nothing.
func (t *txn) runBatched(sc context.Context, r *workload.Request) error {
	var writes []mongo.ClientBulkWrite
	var writeSteps []int
	for i, e := range t.steps {
		m := clientModel(e.op, &r.Steps[i])
		if m == nil { // a read: its own command
			if err := t.runStep(sc, r, i); err != nil {
				return err
			}
			continue
		}
		writes = append(writes, mongo.ClientBulkWrite{Database: e.op.Collection.Database, Collection: e.op.Collection.Name, Model: m})
		writeSteps = append(writeSteps, i)
	}
	if len(writes) == 0 {
		return nil
	}
	start := time.Now()
	res, err := t.cl.c.BulkWrite(sc, writes, options.ClientBulkWrite().SetOrdered(true).SetVerboseResults(true))
	lat := time.Since(start)
	for _, i := range writeSteps { // one command carried them all: each is charged its time
		r.StepRuns = append(r.StepRuns, workload.StepRun{Op: t.steps[i].op, Latency: lat, Err: err})
	}
	if err != nil {
		if isWriteConflict(err) {
			return transientConflict{err}
		}

		if unsupported(err) {
			t.fallback.Store(true)
			t.once.Do(func() {
				t.cl.notice(fmt.Sprintf("%s: the server refused the client bulkWrite command (MongoDB 8.0+: %s); the batched style runs one command per step instead", t.op.Name, firstLine(err)))
			})
			return errPerOperation // the server aborted this transaction: run it again per operation
		}
		return err
	}
	first := len(r.StepRuns) - len(writeSteps)
	for j := range writeSteps {
		r.StepRuns[first+j].Docs = bulkDocs(res, j)
	}
	for j, i := range writeSteps {
		e := t.steps[i]
		if !e.op.AbortIfNoMatch {
			continue
		}
		if u, ok := res.UpdateResults[j]; ok && u.MatchedCount == 0 && u.UpsertedID == nil {
			return &workload.Abort{Reason: e.op.AbortReason}
		}
		if d, ok := res.DeleteResults[j]; ok && d.DeletedCount == 0 {
			return &workload.Abort{Reason: e.op.AbortReason}
		}
	}
	return nil
}

// bulkDocs is what write j of a client bulkWrite did with documents.
func bulkDocs(res *mongo.ClientBulkWriteResult, j int) metrics.Docs {
	if u, ok := res.UpdateResults[j]; ok {
		d := metrics.Docs{Matched: u.MatchedCount, Modified: u.ModifiedCount}
		if u.UpsertedID != nil {
			d.Upserted = 1
		}
		return shaped(d, d.Matched+d.Upserted)
	}
	if d, ok := res.DeleteResults[j]; ok {
		return shaped(metrics.Docs{Deleted: d.DeletedCount}, d.DeletedCount)
	}
	if _, ok := res.InsertResults[j]; ok {
		return metrics.Docs{Inserted: 1}
	}
	return metrics.Docs{}
}

// clientModel turns a write step into a client bulkWrite model; nil for reads.
func clientModel(op *workload.Op, r *workload.Request) mongo.ClientWriteModel {
	if model := rowOf(op.Kind).model; model != nil {
		return model(op, r)
	}
	return nil
}

// unsupported reports whether the server does not know the bulkWrite command.
func unsupported(err error) bool {
	var ce mongo.CommandError
	if errors.As(err, &ce) && (ce.Code == 59 || ce.Code == 115 || ce.Name == "CommandNotFound") {
		return true
	}
	// A bulkWrite that cannot start a transaction with its read concern
	// (IDLUnknownField on bulkWrite.readConcern) cannot run this style either.
	if code, name := errorCode(err); code == 40415 || name == "IDLUnknownField" {
		return strings.Contains(err.Error(), "bulkWrite")
	}
	msg := strings.ToLower(err.Error())
	return strings.Contains(msg, "no such command") || strings.Contains(msg, "not supported") || strings.Contains(msg, "requires mongodb 8.0")
}

// transientConflict restores the TransientTransactionError label that a
// write conflict inside a transaction carries on the server but that the
// driver's ClientBulkWriteException does not expose, so WithTransaction
// retries a batched transaction exactly as it retries a per-operation one.
type transientConflict struct{ err error }

func (t transientConflict) Error() string { return t.err.Error() }
func (t transientConflict) Unwrap() error { return t.err }

// HasErrorLabel implements the driver's mongo.LabeledError.
func (t transientConflict) HasErrorLabel(label string) bool {
	return label == driverTransientLabel
}

const driverTransientLabel = "TransientTransactionError"

func isWriteConflict(err error) bool {
	var cbe mongo.ClientBulkWriteException
	if !errors.As(err, &cbe) {
		return false
	}
	if cbe.WriteError != nil && cbe.WriteError.Code == 112 {
		return true
	}
	for _, we := range cbe.WriteErrors {
		if we.Code == 112 {
			return true
		}
	}
	return false
}

func errorCode(err error) (int, string) {
	if name, code, ok := serverCode(err); ok {
		return code, name
	}
	return 0, ""
}
