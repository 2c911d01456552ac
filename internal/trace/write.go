package trace

import (
	"bufio"
	"bytes"
	"compress/flate"
	"container/heap"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
)

// A frame holds up to this many entries or bytes, or this span of start
// times, before it is written: a damaged frame loses at most that much,
// and a slow trace is not one frame.
const (
	frameEntries = 4096
	frameBytes   = 1 << 20
	frameSpan    = time.Second
)

// Reordering: sources record an operation when it ends, so entries arrive
// in the order they ended. The writer holds them in a heap by start and
// writes an entry once no entry still to come can start before it: one
// that ends later started at most the longest duration seen before that
// end (at least minWindow, at most maxWindow, so memory stays bounded).
const (
	minWindow = time.Second
	maxWindow = time.Minute
)

// Writer writes a trace. It is not safe for concurrent use.
type Writer struct {
	w       *bufio.Writer
	c       io.Closer
	path    string // Create's file
	pending entryHeap
	newest  time.Time     // the latest end seen
	longest time.Duration // the longest duration seen
	last    time.Time     // the start of the last entry written
	buf     bytes.Buffer  // the frame being filled
	n       int           // its entries
	first   time.Time     // its first entry's start
	zbuf    bytes.Buffer
	zw      *flate.Writer
	written int64
	late    int64
	seq     uint64
	err     error
}

// NewWriter starts a trace on w (closed by Close when it is an io.Closer).
func NewWriter(w io.Writer, h Header) (*Writer, error) {
	tw := &Writer{w: bufio.NewWriterSize(w, 256<<10)}
	if c, ok := w.(io.Closer); ok {
		tw.c = c
	}
	tw.zw, _ = flate.NewWriter(&tw.zbuf, flate.DefaultCompression)
	h.Version = Version
	doc, err := bson.Marshal(h)
	if err != nil {
		return nil, err
	}
	if _, err := tw.w.WriteString(magic); err != nil {
		return nil, err
	}
	tw.buf.Write(doc)
	tw.n = 1
	if err := tw.flush(kindHeader); err != nil {
		return nil, err
	}
	return tw, nil
}

// Add queues one entry; it is written once no earlier-starting entry can
// still come (see minWindow).
func (t *Writer) Add(e Entry) error {
	if t.err != nil {
		return t.err
	}
	e.Cmd = bytes.Clone(e.Cmd) // the source's buffer may be reused
	t.seq++
	e.seq = t.seq // entries that start together keep the order they came in
	heap.Push(&t.pending, e)
	if end := e.Start.Add(e.Dur); end.After(t.newest) {
		t.newest = end
	}
	t.longest = max(t.longest, e.Dur)
	window := min(max(t.longest, minWindow), maxWindow)
	for t.pending.Len() > 0 && t.pending[0].Start.Before(t.newest.Add(-window)) {
		if err := t.write(heap.Pop(&t.pending).(Entry)); err != nil {
			return err
		}
	}
	return nil
}

// Close writes what is pending, the trailer (its Entries and Late filled
// in here), and closes the file.
func (t *Writer) Close(tr Trailer) error {
	for t.pending.Len() > 0 && t.err == nil {
		t.err = t.write(heap.Pop(&t.pending).(Entry))
	}
	if t.err == nil && t.n > 0 {
		t.err = t.flush(kindEntry)
	}
	if t.err == nil {
		tr.Entries, tr.Late = t.written, t.late
		var doc []byte
		if doc, t.err = bson.Marshal(tr); t.err == nil {
			t.buf.Write(doc)
			t.n = 1
			t.err = t.flush(kindEnd)
		}
	}
	if t.err == nil {
		t.err = t.w.Flush()
	}
	if t.c != nil {
		if err := t.c.Close(); t.err == nil {
			t.err = err
		}
	}
	return t.err
}

// Written is how many entries went to the file so far.
func (t *Writer) Written() int64 { return t.written }

func (t *Writer) write(e Entry) error {
	if e.Start.Before(t.last) {
		t.late++
	} else {
		t.last = e.Start
	}
	idx, doc := bsoncore.AppendDocumentStart(t.buf.AvailableBuffer())
	doc = bsoncore.AppendInt64Element(doc, fStart, e.Start.UnixMicro())
	doc = bsoncore.AppendInt64Element(doc, fDur, e.Dur.Microseconds())
	doc = bsoncore.AppendStringElement(doc, fNS, e.NS)
	doc = bsoncore.AppendStringElement(doc, fOp, e.Op)
	if len(e.Cmd) > 0 {
		doc = bsoncore.AppendDocumentElement(doc, fCmd, e.Cmd)
	}
	if e.Conn != "" {
		doc = bsoncore.AppendStringElement(doc, fConn, e.Conn)
	}
	if e.App != "" {
		doc = bsoncore.AppendStringElement(doc, fApp, e.App)
	}
	if e.Shape != "" {
		doc = bsoncore.AppendStringElement(doc, fShape, e.Shape)
	}
	doc, _ = bsoncore.AppendDocumentEnd(doc, idx)
	t.buf.Write(doc)
	if t.n == 0 {
		t.first = e.Start
	}
	t.n++
	t.written++
	if t.n >= frameEntries || t.buf.Len() >= frameBytes || e.Start.Sub(t.first) >= frameSpan {
		return t.flush(kindEntry)
	}
	return nil
}

// flush writes the frame being filled.
func (t *Writer) flush(kind byte) error {
	t.zbuf.Reset()
	t.zw.Reset(&t.zbuf)
	if _, err := t.zw.Write(t.buf.Bytes()); err != nil {
		return err
	}
	if err := t.zw.Close(); err != nil {
		return err
	}
	if t.buf.Len() > maxFrame || t.zbuf.Len() > maxFrame {
		return fmt.Errorf("trace: a frame of %d bytes is over the format's limit", t.buf.Len())
	}
	var head [headSize]byte
	copy(head[:], frameMagic)
	head[4] = kind
	binary.LittleEndian.PutUint32(head[5:], uint32(t.n))
	binary.LittleEndian.PutUint32(head[9:], uint32(t.buf.Len()))
	binary.LittleEndian.PutUint32(head[13:], uint32(t.zbuf.Len()))
	binary.LittleEndian.PutUint32(head[17:], crc32.ChecksumIEEE(t.zbuf.Bytes()))
	t.buf.Reset()
	t.n = 0
	if _, err := t.w.Write(head[:]); err != nil {
		return err
	}
	_, err := t.w.Write(t.zbuf.Bytes())
	return err
}

// entryHeap orders pending entries by start.
type entryHeap []Entry

func (h entryHeap) Len() int { return len(h) }
func (h entryHeap) Less(i, j int) bool {
	if c := h[i].Start.Compare(h[j].Start); c != 0 {
		return c < 0
	}
	return h[i].seq < h[j].seq
}
func (h entryHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *entryHeap) Push(x any)   { *h = append(*h, x.(Entry)) }
func (h *entryHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}
