package workload

import (
	"sync"

	"github.com/mongoload/mongoload/internal/generate"
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
	// Docs are the documents to insert (or the replacement), slices of buf.
	Docs  [][]byte
	buf   []byte
	small []byte  // the worker's own buffer, for operations without documents
	big   *[]byte // from bigBuffers while an operation with documents is built
	ends  []int
}

// Release returns the request's large buffer, if it holds one; its Docs are
// invalid afterwards. Call it when the operation has been executed.
func (r *Request) Release() {
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
