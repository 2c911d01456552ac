package replay

import (
	"container/heap"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/dbcommand"
	"github.com/mongoload/mongoload/internal/trace"
)

// Trace is what a first pass over a trace file found: enough to build the
// plan, check the target and say what the replay covers, without holding
// any operation.
type Trace struct {
	Path        string
	Header      trace.Header
	Trailer     *trace.Trailer // nil when the file has none (cut short)
	Damage      trace.Damage
	Entries     int64            // entries that read
	Sent        int64            // of them, those a replay sends
	Skipped     map[string]int64 // why -> entries not sent
	First, Last time.Time        // the first and last start of a sent entry
	Shapes      []*Shape         // in order of count, most first
	Namespaces  []*Namespace     // in order of first use
	Lanes       bool             // the source names connections: their order is kept
	Policy      dbcommand.Policy // what is sent beyond data reads and writes (--replay-ddl, --replay-admin)
	SourceTime  time.Duration    // the sent entries' durations on the source, summed
	Peak        int              // the most operations in flight at once on the source
	ends        endHeap
	byShape     map[string]*Shape
	keep        Keep // nil: every entry that is an operation
}

// Shape is one captured shape: the operation it is replayed and measured as.
type Shape struct {
	Key   string
	Name  string // as the capture's workload file names it
	Type  string // as the cross-check counts it (opType)
	NS    string
	Count int64
	Index int // the plan's operation
}

// Namespace is one collection the trace's sent commands touch: read on,
// written into (their own collection, a pipeline's $out...) or altered
// (DDL, with --replay-ddl). The server's own namespaces (dbcommand.Reserved)
// are none: setup never prepares them.
type Namespace struct {
	NS                    string
	Reads, Writes, Alters int64
	WrittenBy, AlteredBy  string // the first command that writes into it, that alters it
	IndexBuildsOnly       bool   // every command that alters it only builds indexes
}

// Span is the captured schedule's length, first start to last.
func (t *Trace) Span() time.Duration { return t.Last.Sub(t.First) }

// Scan reads the whole trace once; pol says what it sends beyond data
// reads and writes.
func Scan(path string, pol dbcommand.Policy) (*Trace, error) { return ScanKeeping(path, pol, nil) }

// ScanKeeping reads the whole trace once; keep (nil: every operation the
// policy sends) leaves out, counted by its reason, each command it says
// why not to send, here and in the feed.
func ScanKeeping(path string, pol dbcommand.Policy, keep Keep) (*Trace, error) {
	r, err := openEntries(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	t := &Trace{Path: path, Header: r.Header, Policy: pol, Skipped: map[string]int64{}, byShape: map[string]*Shape{}, keep: keep}
	nss := map[string]*Namespace{}
	use := func(ns string) *Namespace {
		if dbcommand.Reserved(ns) != "" {
			return nil // the server's, never set up: only a read reaches it (Policy.Skip)
		}
		n := nss[ns]
		if n == nil {
			n = &Namespace{NS: ns, IndexBuildsOnly: true}
			nss[ns] = n
			t.Namespaces = append(t.Namespaces, n)
		}
		return n
	}
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		t.Entries++
		_, cls, why := t.command(e)
		if why != "" {
			t.Skipped[why]++
			continue
		}
		t.Sent++
		t.SourceTime += e.Dur
		t.Peak = max(t.Peak, t.ends.overlap(e.Start, e.Start.Add(e.Dur)))
		if t.First.IsZero() || e.Start.Before(t.First) {
			t.First = e.Start
		}
		if e.Start.After(t.Last) {
			t.Last = e.Start
		}
		if lane(e.Conn) != "" {
			t.Lanes = true
		}
		sh := t.byShape[shapeKey(e.Shape, cls)]
		if sh == nil {
			sh = &Shape{Key: e.Shape, Type: opType(e.Shape), NS: cls.NS}
			t.byShape[shapeKey(e.Shape, cls)] = sh
		}
		sh.Count++
		t.touch(cls, use)
	}
	var skipped map[string]int64
	t.Trailer, t.Damage, skipped = r.End()
	for why, n := range skipped {
		t.Skipped[why] += n
		t.Entries += n
	}
	if t.Sent == 0 {
		return nil, fmt.Errorf("%s: no operation to replay (%d entries read%s)", path, t.Entries, t.skippedText())
	}
	t.name()
	return t, nil
}

// name orders the shapes and names them as the capture's workload did.
func (t *Trace) name() {
	for _, sh := range t.byShape {
		t.Shapes = append(t.Shapes, sh)
	}
	slices.SortStableFunc(t.Shapes, func(a, b *Shape) int {
		if a.Count != b.Count {
			return int(b.Count - a.Count)
		}
		return strings.Compare(a.Key, b.Key)
	})
	used := map[string]bool{}
	for i, sh := range t.Shapes {
		sh.Index = i
		if t.Trailer != nil {
			sh.Name = t.Trailer.Names[sh.Key]
		}
		if sh.Name == "" || used[sh.Name] {
			sh.Name = fmt.Sprintf("%s_%d", strings.ReplaceAll(sh.Type+"_"+strings.TrimPrefix(sh.NS, dbOf(sh.NS)+"."), ".", "_"), i+1)
		}
		used[sh.Name] = true
	}
}

func dbOf(ns string) string { db, _, _ := strings.Cut(ns, "."); return db }

// shapeKey is the operation an entry is sent as: its shape on the
// namespace it runs on. A shape names no database (a recording's "insert
// items"), and the operation is sent on its collection's database: two
// databases' entries of one shape are two operations, each sent where the
// ownership rule checked it.
func shapeKey(shape string, cls dbcommand.Class) string { return shape + "\x00" + cls.NS }

// touch counts what a sent command does to each namespace it names.
func (t *Trace) touch(cls dbcommand.Class, use func(string) *Namespace) {
	switch cls.Kind {
	case dbcommand.Read:
		if n := use(cls.NS); n != nil {
			n.Reads++
		}
	case dbcommand.Write:
		for _, w := range cls.Writes {
			if n := use(w.NS); n != nil {
				n.Writes++
				if n.WrittenBy == "" {
					n.WrittenBy = fmt.Sprintf("the trace's %s writes into it (%s)", cls.Name, w.How)
				}
			}
		}
	case dbcommand.DDL:
		for _, ns := range cls.Alters {
			if n := use(ns); n != nil {
				n.Alters++
				n.IndexBuildsOnly = n.IndexBuildsOnly && cls.IndexOnly()
				if n.AlteredBy == "" || !cls.IndexOnly() && strings.Contains(n.AlteredBy, "createIndexes") {
					n.AlteredBy = "the trace's " + cls.Name + " alters it"
				}
			}
		}
	}
}

// lane is the connection whose order an entry keeps: a log's connection
// (conn42) or a client's address with its port; "" when the source names
// only a host, which many connections share.
func lane(conn string) string {
	if strings.HasPrefix(conn, "conn") || strings.Contains(conn, ":") {
		return conn
	}
	return ""
}

// skippedText lists what is not sent, and why.
func (t *Trace) skippedText() string {
	var parts []string
	for _, why := range slices.Sorted(maps.Keys(t.Skipped)) {
		parts = append(parts, fmt.Sprintf("%d %s", t.Skipped[why], why))
	}
	if len(parts) == 0 {
		return ""
	}
	return "; not sent: " + strings.Join(parts, "; ")
}

// endHeap holds the ends of the operations still in flight at a start, to
// count the source's concurrency; entries come in start order.
type endHeap []time.Time

// overlap adds an operation and returns how many are in flight with it.
func (h *endHeap) overlap(start, end time.Time) int {
	for len(*h) > 0 && !(*h)[0].After(start) {
		heap.Pop(h)
	}
	heap.Push(h, end)
	return len(*h)
}

func (h endHeap) Len() int           { return len(h) }
func (h endHeap) Less(i, j int) bool { return h[i].Before(h[j]) }
func (h endHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *endHeap) Push(x any)        { *h = append(*h, x.(time.Time)) }
func (h *endHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
