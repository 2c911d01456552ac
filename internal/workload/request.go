package workload

import (
	"encoding/binary"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/generate"
	"github.com/mongoload/mongoload/internal/metrics"
)

// bigBuffers holds the buffers of operations that carry documents. A worker
// keeps only a small buffer of its own: with thousands of workers, each
// holding a buffer grown to its largest batch would cost tens of megabytes,
// while only the operations in flight need one.
var bigBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 32<<10); return &b }}

// Request is one built operation: BSON bytes ready for the driver. A worker
// owns one Request and reuses its buffer for every operation, so building
// allocates nothing once the buffer has grown.
type Request struct {
	Op         *Op
	Filter     []byte
	Update     []byte
	Projection []byte
	Sort       []byte
	Pipeline   []byte
	// Limit is this call's limit when the operation draws it (Op.LimitGen).
	Limit int64
	// Docs are the documents to insert (or the replacement), slices of buf.
	Docs [][]byte
	// Command is a Replay operation's command, sent as it is.
	Command []byte
	buf     []byte
	small   []byte  // the worker's own buffer, for operations without documents
	big     *[]byte // from bigBuffers while an operation with documents is built
	ends    []int
	st      *generate.State // the state of the last Build, whose keys Release settles
	// scratch receives a drawn limit.
	scratch [16]byte

	// Steps are a transaction's steps, built together: one let draw, and
	// the keys their inserts take are held until the whole transaction ends.
	Steps []Request
	// StepRuns is filled by the executor: every step execution of the last
	// run (retries included), for the steps' own histograms.
	StepRuns []StepRun
	// Retries is filled by the executor: the retries a transaction needed,
	// by cause (TransientTransactionError, UnknownTransactionCommitResult).
	Retries map[string]int64
}

// StepRun is one execution of one step of a transaction.
type StepRun struct {
	Op      *Op
	Latency time.Duration
	Err     error
	Docs    metrics.Docs // what the step did with documents, when it succeeded
}

// Release returns the request's large buffer, if it holds one, and ends
// the hold on the keys its inserts took, which queries may draw from then
// on (generate.State.HoldKeys); its Docs are invalid afterwards. Call it
// when the operation has been executed, whatever its outcome.
func (r *Request) Release() {
	if r.st != nil {
		r.st.SettleKeys()
		r.st = nil
	}
	for i := range r.Steps {
		r.Steps[i].releaseBuffer()
	}
	r.releaseBuffer()
}

func (r *Request) releaseBuffer() {
	if r.big != nil {
		*r.big = r.buf[:0]
		bigBuffers.Put(r.big)
		r.big, r.buf, r.Docs = nil, nil, r.Docs[:0]
	}
}

// Build fills r with a fresh instance of op drawn from st.
func (r *Request) Build(op *Op, st *generate.State) {
	r.Release()
	r.Op = op
	r.st = st
	st.HoldKeys()
	r.StepRuns = r.StepRuns[:0] // a transaction's steps, a read-modify-write's parts
	if op.Kind == Transaction {
		r.buildTransaction(op, st)
		return
	}
	r.build(op, st)
}

// buildTransaction draws the let once and builds every step from it.
func (r *Request) buildTransaction(op *Op, st *generate.State) {
	op.Let.Draw(st)
	for len(r.Steps) < len(op.Steps) {
		r.Steps = append(r.Steps, Request{})
	}
	r.Steps = r.Steps[:len(op.Steps)]
	for i, s := range op.Steps {
		r.Steps[i].Op = s
		r.Steps[i].build(s, st)
	}
	clear(r.Retries)
}

// build fills the buffers of a plain operation (or one step).
func (r *Request) build(op *Op, st *generate.State) {
	if op.Document != nil {
		r.big = bigBuffers.Get().(*[]byte)
		r.buf = (*r.big)[:0]
	} else {
		r.buf = r.small[:0]
	}
	r.ends = r.ends[:0]
	mark := func() int { r.ends = append(r.ends, len(r.buf)); return len(r.ends) - 1 }
	mark() // the start of the buffer
	fIdx, uIdx, pIdx, sIdx, plIdx := -1, -1, -1, -1, -1
	if op.Filter != nil {
		r.buf = op.Filter.Append(r.buf, st)
		fIdx = mark()
	}
	if op.Update != nil {
		r.buf = op.Update.Append(r.buf, st)
		uIdx = mark()
	}
	if op.Projection != nil {
		r.buf = op.Projection.Append(r.buf, st)
		pIdx = mark()
	}
	if op.Sort != nil {
		r.buf = op.Sort.Append(r.buf, st)
		sIdx = mark()
	}
	if op.Pipeline != nil {
		r.buf = op.Pipeline.Append(r.buf, st)
		plIdx = mark()
	}
	if op.LimitGen != nil {
		r.Limit = drawInt(op.LimitGen, r.scratch[:0], st)
	}
	docsFrom := len(r.ends)
	if op.Document != nil {
		n := 1
		if op.Kind == InsertMany {
			n = op.BatchSize
		}
		for i := 0; i < n; i++ {
			r.buf = op.Document.Append(r.buf, st)
			mark()
		}
	}
	if r.big == nil {
		r.small = r.buf
	}
	// Slice only after all appends: buf may have moved while growing.
	r.Filter, r.Update = r.slice(fIdx), r.slice(uIdx)
	r.Projection, r.Sort, r.Pipeline = r.slice(pIdx), r.slice(sIdx), r.slice(plIdx)
	r.Docs = r.Docs[:0]
	for i := docsFrom; i < len(r.ends); i++ {
		r.Docs = append(r.Docs, r.slice(i))
	}
}

// slice returns the bytes between mark i-1 and mark i, nil for i < 0.
func (r *Request) slice(i int) []byte {
	if i <= 0 {
		return nil
	}
	return r.buf[r.ends[i-1]:r.ends[i]:r.ends[i]]
}

// drawInt draws one integer from g into scratch.
func drawInt(g generate.Generator, scratch []byte, st *generate.State) int64 {
	typ, v := g.Append(scratch, st)
	switch {
	case typ == bson.TypeInt32 && len(v) == 4:
		return int64(int32(binary.LittleEndian.Uint32(v)))
	case typ == bson.TypeInt64 && len(v) == 8:
		return int64(binary.LittleEndian.Uint64(v))
	}
	return 0
}
