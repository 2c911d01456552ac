// Package loader fills collections with generated documents at production
// scale: parallel unordered insertMany batches, progress reports, and
// loads that survive interruption.
//
// A load hands out keys in chunks (one insertMany each) and records on the
// server, in the collection's load Record, the key ranges it has written.
// Every document is a function of its key (generate.State.BeginDocument:
// the random source is reseeded from the key and the load's seed, and
// ObjectIds derive from the key), so redoing a chunk that an interruption
// left half-written inserts the very same documents: those already there
// fail with a duplicate-key error on _id, which a redo ignores. A resume
// therefore redoes only the chunks not recorded as done, without
// duplicates and without gaps. Templates without an _id get one derived
// from the key, for the same reason.
//
// N processes fill one collection together by each loading one part of the
// key range (Options.Part of Options.Parts); the record holds each part's
// progress.
package loader

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/generate"
	"github.com/mongoload/mongoload/internal/workload"
)

// DefaultBatchSize is measured on the local test server (bench/load.sh):
// from 500 documents per insertMany on, the rate stays within the noise,
// and 1,000 keeps the round trips few without making one insert long (2 MB
// for ~2 KB documents).
const DefaultBatchSize = 1000

// MaxBatchBytes bounds one insertMany's documents: a batch holds at most
// BatchSize documents and about this many bytes, so large documents (the
// 7 KB payments-heavy ledger) do not make 7 MB batches per worker, each
// copied again into the command and the driver's wire message. 512 KiB is
// ~230 default flights or ~450 YCSB records; loading 40,000 flights it
// peaked at 52 MB RSS against 73 MB at 1 MiB, at no lower rate (bench/run.sh
// measures seeding's peak).
const MaxBatchBytes = 512 << 10

// DefaultWorkers is two inserters per core of the client, at least 4 and
// at most 32. On the 2-core test machine (shared with the server) 4 and 8
// workers load at the same rate within the noise, 4 with a third less
// memory; a bigger client usually loads a bigger cluster, whose latency
// more batches in flight hide.
func DefaultWorkers() int { return min(max(4, 2*runtime.GOMAXPROCS(0)), 32) }

// Inserter writes documents into a collection with one unordered
// insertMany. When some of them are already there (duplicate key on _id
// or a unique index) and nothing else failed, it returns a
// *DuplicateError counting them; the others were inserted.
type Inserter interface {
	InsertDocs(ctx context.Context, col *workload.Collection, docs [][]byte) error
}

// DuplicateError reports documents of a batch that were already in the
// collection; the rest of the batch was inserted.
type DuplicateError struct {
	Count int
	First string // the server's message for the first one
}

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("%d document(s) already in the collection (%s)", e.Count, e.First)
}

// Store keeps load Records on the server.
type Store interface {
	// ReadLoad returns the collection's load record, nil when it has none.
	ReadLoad(ctx context.Context, col *workload.Collection) (*Record, error)
	// CreateLoad makes rec the collection's load record, replacing the
	// record of generation replacing (0: there must be none), unless
	// another process changed the record first; it returns the record
	// that holds afterwards, rec or the other process's. It also counts
	// keys [0, rec.Target) as handed out in the collection's key count, so
	// that inserts of later runs never take a key of the load.
	CreateLoad(ctx context.Context, col *workload.Collection, rec *Record, replacing int64) (*Record, error)
	// SavePart records the state of one part of the load of generation
	// gen; it fails when the record is no longer that load's.
	SavePart(ctx context.Context, col *workload.Collection, gen int64, part int, ps PartState) error
	// FinishLoad marks the load of generation gen finished.
	FinishLoad(ctx context.Context, col *workload.Collection, gen int64) error
}

// Options shape a load.
type Options struct {
	// Target is the number of documents (keys 0 to Target-1) the
	// collection holds afterwards; 0 with Resume means the target of the
	// load being resumed.
	Target int64
	// Part of Parts: this process loads its share of the keys.
	Part, Parts int
	BatchSize   int
	Workers     int
	// Resume continues a part that an earlier attempt started.
	Resume bool
	// RandomSeed seeds the documents of a new load (a resumed load keeps
	// the seed it started with).
	RandomSeed uint64
	// Interval between OnProgress calls (default 1s); every call is made
	// from one goroutine.
	Interval   time.Duration
	OnProgress func(Progress)
	// OnNotice receives one-line warnings.
	OnNotice func(string)
	// Retryable says whether an insert error is worth retrying (network,
	// timeout); nil means none is.
	Retryable func(error) bool
	// SaveEvery is how often the written ranges are recorded (default 1s):
	// what an interruption may make a resume redo.
	SaveEvery time.Duration
	// Grace is how long the inserts in flight may finish after ctx ends
	// (default 5s), so that an interruption loses little work.
	Grace time.Duration
	Now   func() time.Time
}

func (o Options) withDefaults() Options {
	if o.Parts < 1 {
		o.Parts, o.Part = 1, 0
	}
	if o.BatchSize < 1 {
		o.BatchSize = DefaultBatchSize
	}
	if o.Workers < 1 {
		o.Workers = DefaultWorkers()
	}
	if o.Interval <= 0 {
		o.Interval = time.Second
	}
	if o.SaveEvery <= 0 {
		o.SaveEvery = time.Second
	}
	if o.Grace <= 0 {
		o.Grace = 5 * time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.OnNotice == nil {
		o.OnNotice = func(string) {}
	}
	return o
}

// Result is how a load of one collection ended.
type Result struct {
	Progress
	Target int64 // the load's target (keys [0, Target))
	Range  Range // the keys this process loads
	// Nothing: the collection already held the target.
	Nothing bool
	// PartFinished: every key of Range is written.
	PartFinished bool
	// LoadFinished: every part is finished, the collection holds keys
	// [0, Target).
	LoadFinished bool
}

// Load fills col to o.Target documents, or its part of them. It returns
// when the part is written, when ctx ends (after the inserts in flight,
// with ctx's error) or at the first insert that fails for good. Either way
// the written ranges are recorded, so that Load with Resume continues.
func Load(ctx context.Context, ins Inserter, store Store, col *workload.Collection, o Options) (Result, error) {
	o = o.withDefaults()
	res := Result{Progress: Progress{Collection: col.Namespace(), Part: o.Part, Parts: o.Parts}}
	if o.Part < 0 || o.Part >= o.Parts {
		return res, fmt.Errorf("part %d of %d does not exist", o.Part, o.Parts)
	}
	rec, act, err := begin(ctx, store, col, o)
	if err != nil {
		return res, err
	}
	if act == actNothing {
		res.Nothing, res.PartFinished, res.LoadFinished, res.Final = true, true, true, true
		_, res.Target = col.Keys.Bounds()
		return res, nil
	}
	res.Target, res.Range = rec.Target, rec.PartRange(o.Part)
	// The load's keys are taken: inserts after it start at its target.
	if first, end := col.Keys.Bounds(); end < rec.Target {
		col.Keys.Reset(first, rec.Target-first)
	}
	if act != actPartDone {
		res.Progress, err = newPartRun(store, col, rec, o).run(ctx, ins)
		if err != nil {
			return res, err
		}
	} else {
		res.Total, res.Already, res.Final = res.Range.Len(), res.Range.Len(), true
	}
	res.PartFinished = true
	res.LoadFinished, err = finishLoad(ctx, store, col, rec.Generation)
	return res, err
}

// begin reads the collection's record and decides; a new load creates
// its record, and a race with another process creating one is decided
// again with the winner's record.
func begin(ctx context.Context, store Store, col *workload.Collection, o Options) (*Record, action, error) {
	for range 3 {
		rec, err := store.ReadLoad(ctx, col)
		if err != nil {
			return nil, 0, fmt.Errorf("read the load state of %s: %w", col.Namespace(), err)
		}
		_, base := col.Keys.Bounds()
		act, err := decide(rec, request{ns: col.Namespace(), base: base, target: o.Target, part: o.Part, parts: o.Parts, resume: o.Resume})
		if err != nil || act != actCreate {
			return rec, act, err
		}
		now := o.Now()
		fresh := &Record{Generation: now.UnixNano(), Base: base, Target: o.Target, Partitions: o.Parts,
			Seed: o.RandomSeed, Epoch: uint32(now.Unix()), Created: now.UTC(), Parts: map[int]PartState{}}
		var replacing int64
		if rec != nil {
			replacing = rec.Generation
		}
		won, err := store.CreateLoad(ctx, col, fresh, replacing)
		if err != nil {
			return nil, 0, fmt.Errorf("record the load of %s: %w", col.Namespace(), err)
		}
		if won != nil && won.Generation == fresh.Generation {
			return won, actJoin, nil
		}
	}
	return nil, 0, fmt.Errorf("%w: %s: another process keeps starting loads of this collection with other settings", ErrConflict, col.Namespace())
}

// finishLoad marks the load finished once every part is, and reports
// whether it is. Each part records its end before it looks, so of two
// parts ending together at least one sees both ends.
func finishLoad(ctx context.Context, store Store, col *workload.Collection, gen int64) (bool, error) {
	ctx, cancel := saveContext(ctx)
	defer cancel()
	rec, err := store.ReadLoad(ctx, col)
	if err != nil {
		return false, fmt.Errorf("read the load state of %s: %w", col.Namespace(), err)
	}
	if rec == nil || rec.Generation != gen || !rec.AllFinished() {
		return false, nil
	}
	if !rec.Finished {
		if err := store.FinishLoad(ctx, col, gen); err != nil {
			return false, fmt.Errorf("record the end of the load of %s: %w", col.Namespace(), err)
		}
	}
	return true, nil
}

// saveContext outlives an interruption: the state must be recorded even
// when the user pressed Ctrl-C.
func saveContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
}

// partRun is one process loading its part.
type partRun struct {
	store  Store
	col    *workload.Collection
	rec    *Record
	o      Options
	part   Range
	seed   uint64 // of the documents: the record's, mixed with the namespace
	addID  bool   // the template has no _id: derive one from the key
	chunks *dispenser

	mu    sync.Mutex // guards lease and done
	lease int64
	done  Ranges

	saveMu sync.Mutex // orders the writes of the part's state

	written, dups, bytes atomic.Int64
}

func newPartRun(store Store, col *workload.Collection, rec *Record, o Options) *partRun {
	ps := rec.Parts[o.Part]
	pr := rec.PartRange(o.Part)
	p := &partRun{store: store, col: col, rec: rec, o: o, part: pr,
		lease: min(max(ps.Lease, pr.From), pr.To), done: append(Ranges(nil), ps.Done...)}
	h := fnv.New64a()
	h.Write([]byte(col.Namespace()))
	p.seed = rec.Seed ^ h.Sum64()
	redo, fresh := rec.work(o.Part)
	batch := batchSize(col, o.BatchSize, p.seed, rec.Epoch, pr.From)
	ahead := batch * int64(o.Workers) * 4
	p.chunks = &dispenser{redo: redo, fresh: fresh, chunk: batch, lease: p.lease, ahead: ahead, extend: p.extendLease}
	return p
}

// batchSize is the documents per insertMany: at most count, and about
// MaxBatchBytes of documents of the size the template makes (measured on a
// sample of the part's first keys).
func batchSize(col *workload.Collection, count int, seed uint64, epoch uint32, from int64) int64 {
	const sample = 16
	st := generate.NewState(seed, 1<<40)
	var buf []byte
	for k := from; k < from+sample; k++ {
		st.BeginDocument(col.Keys, k, seed, epoch)
		buf = col.Doc.Append(buf, st)
	}
	st.EndDocuments()
	avg := max(int64(len(buf))/sample, 1)
	return max(1, min(int64(count), MaxBatchBytes/avg))
}

func (p *partRun) finished() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.done.Covers(p.part)
}

// run loads the part's remaining keys.
func (p *partRun) run(ctx context.Context, ins Inserter) (Progress, error) {
	prog := Progress{Collection: p.col.Namespace(), Part: p.o.Part, Parts: p.o.Parts, Total: p.part.Len(), Already: p.done.Len()}
	if err := p.save(ctx, false); err != nil { // marks the part started
		return prog, err
	}
	p.checkID()
	start := p.o.Now()
	snapshot := func(final bool) Progress {
		s := prog
		s.Written, s.Duplicates, s.Bytes = p.written.Load(), p.dups.Load(), p.bytes.Load()
		s.Elapsed, s.Final = p.o.Now().Sub(start), final
		return s
	}

	runCtx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	// Inserts in flight may finish for a while after an interruption.
	insCtx, cancelIns := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelIns()
	unhook := context.AfterFunc(runCtx, func() { time.AfterFunc(p.o.Grace, cancelIns) })
	defer unhook()

	var wg sync.WaitGroup
	for w := range p.o.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := p.work(runCtx, insCtx, ins, w); err != nil {
				stop(err)
			}
		}()
	}
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()

	report := time.NewTicker(p.o.Interval)
	defer report.Stop()
	save := time.NewTicker(p.o.SaveEvery)
	defer save.Stop()
	for {
		select {
		case <-report.C:
			if p.o.OnProgress != nil {
				p.o.OnProgress(snapshot(false))
			}
		case <-save.C:
			if err := p.save(ctx, false); err != nil {
				stop(err)
			}
		case <-finished:
			done := p.finished()
			saveErr := p.save(ctx, done)
			final := snapshot(true)
			if p.o.OnProgress != nil {
				p.o.OnProgress(final)
			}
			err := context.Cause(runCtx)
			if errors.Is(err, context.Canceled) && ctx.Err() != nil {
				err = ctx.Err()
			}
			if err == nil && !done {
				err = fmt.Errorf("load of %s stopped with keys left to write", p.col.Namespace())
			}
			return final, errors.Join(err, saveErr)
		}
	}
}

// work is one worker: it takes chunks until none is left or runCtx ends.
func (p *partRun) work(runCtx, insCtx context.Context, ins Inserter, id int) error {
	st := generate.NewState(p.seed, 1<<32+uint64(id))
	var buf []byte
	docs := make([][]byte, 0, p.o.BatchSize)
	ends := make([]int, 0, p.o.BatchSize)
	for runCtx.Err() == nil {
		c, fresh, ok, err := p.chunks.next()
		if err != nil || !ok {
			return err
		}
		buf, ends = buf[:0], ends[:0]
		for k := c.From; k < c.To; k++ {
			st.BeginDocument(p.col.Keys, k, p.seed, p.rec.Epoch)
			at := len(buf)
			buf = p.col.Doc.Append(buf, st)
			if p.addID {
				buf = prependID(buf, at, generate.LoadObjectID(p.rec.Epoch, k))
			}
			ends = append(ends, len(buf))
		}
		st.EndDocuments()
		docs = docs[:0]
		from := 0
		for _, e := range ends {
			docs = append(docs, buf[from:e:e])
			from = e
		}
		dups, err := p.insert(runCtx, insCtx, ins, c, fresh, docs)
		if err != nil {
			return err
		}
		p.complete(c)
		p.written.Add(c.Len() - int64(dups))
		p.dups.Add(int64(dups))
		p.bytes.Add(int64(len(buf)))
	}
	return nil
}

// insert writes one chunk, retrying what o.Retryable allows; a retry, like
// a redo, may find documents of its first attempt already there.
func (p *partRun) insert(runCtx, insCtx context.Context, ins Inserter, c Range, fresh bool, docs [][]byte) (int, error) {
	backoff := 500 * time.Millisecond
	for attempt := 1; ; attempt++ {
		err := ins.InsertDocs(insCtx, p.col, docs)
		var de *DuplicateError
		switch {
		case err == nil:
			return 0, nil
		case errors.As(err, &de) && !fresh:
			return de.Count, nil
		case errors.As(err, &de):
			return 0, fmt.Errorf("load %s, keys %s: %d new document(s) collide with documents already in the collection (%s): the template gives _id or a unique index the same value twice; derive unique fields from {$gen: key}",
				p.col.Namespace(), c, de.Count, de.First)
		case attempt < 4 && p.o.Retryable != nil && p.o.Retryable(err) && runCtx.Err() == nil:
			p.o.OnNotice(fmt.Sprintf("load %s, keys %s: %v; retrying in %s", p.col.Namespace(), c, firstLine(err), backoff))
			select {
			case <-time.After(backoff):
			case <-runCtx.Done():
				return 0, context.Cause(runCtx)
			}
			backoff *= 2
			fresh = false
		default:
			if insCtx.Err() != nil {
				return 0, context.Cause(runCtx) // interrupted, not failed
			}
			return 0, fmt.Errorf("load %s, keys %s: %w", p.col.Namespace(), c, err)
		}
	}
}

func (p *partRun) complete(c Range) {
	p.mu.Lock()
	p.done = p.done.Add(c)
	p.mu.Unlock()
}

// extendLease records that keys up to lease may be handed out, before any
// of them is.
func (p *partRun) extendLease(lease int64) error {
	p.mu.Lock()
	p.lease = max(p.lease, lease)
	p.mu.Unlock()
	return p.save(context.Background(), false)
}

// save records the part's state. Snapshots are taken and written under
// saveMu, so the record never goes back to an older state.
func (p *partRun) save(ctx context.Context, finished bool) error {
	p.saveMu.Lock()
	defer p.saveMu.Unlock()
	p.mu.Lock()
	ps := PartState{Lease: p.lease, Done: append(Ranges(nil), p.done...), Finished: finished, Updated: p.o.Now().UTC()}
	p.mu.Unlock()
	if finished {
		ps.Done, ps.Lease = Ranges{p.part}, p.part.To
	}
	ctx, cancel := saveContext(ctx)
	defer cancel()
	if err := p.store.SavePart(ctx, p.col, p.rec.Generation, p.o.Part, ps); err != nil {
		return fmt.Errorf("record the progress of the load of %s: %w", p.col.Namespace(), err)
	}
	return nil
}

// checkID decides whether documents need an _id derived from the key, and
// warns when the template's own _id is not a function of the key.
func (p *partRun) checkID() {
	key := p.part.From
	gen := func(stream uint64) []byte {
		st := generate.NewState(stream, stream)
		st.BeginDocument(p.col.Keys, key, p.seed, p.rec.Epoch)
		return p.col.Doc.Append(nil, st)
	}
	a, b := gen(1), gen(2)
	ida, errA := bson.Raw(a).LookupErr("_id")
	idb, errB := bson.Raw(b).LookupErr("_id")
	switch {
	case errA != nil || errB != nil:
		p.addID = true
	case ida.Type != idb.Type || !bytes.Equal(ida.Value, idb.Value):
		p.o.OnNotice(fmt.Sprintf("%s: the template's _id follows the clock, not the key: an interrupted load of it cannot be resumed without duplicates (use {$gen: objectId} or {$gen: key})", p.col.Namespace()))
	}
}

// prependID inserts an _id ObjectId element at the front of the document
// that starts at buf[at:].
func prependID(buf []byte, at int, oid bson.ObjectID) []byte {
	const elem = 1 + 4 + 12 // type, "_id\x00", ObjectId
	n := len(buf) - at
	buf = append(buf, make([]byte, elem)...)
	copy(buf[at+4+elem:], buf[at+4:at+n])
	e := buf[at+4 : at+4+elem]
	e[0] = byte(bson.TypeObjectID)
	copy(e[1:5], "_id\x00")
	copy(e[5:], oid[:])
	size := uint32(n + elem)
	buf[at], buf[at+1], buf[at+2], buf[at+3] = byte(size), byte(size>>8), byte(size>>16), byte(size>>24)
	return buf
}

func firstLine(err error) string {
	s := err.Error()
	if i := bytes.IndexByte([]byte(s), '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// dispenser hands out chunks: first the keys to redo, then fresh keys,
// recording the lease before any fresh key goes out.
type dispenser struct {
	mu     sync.Mutex
	redo   Ranges
	fresh  Ranges
	chunk  int64
	lease  int64
	ahead  int64
	extend func(lease int64) error
}

// next returns the next chunk and whether it is fresh; ok is false when
// nothing is left.
func (d *dispenser) next() (c Range, fresh, ok bool, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.redo) > 0 {
		return take(&d.redo, d.chunk), false, true, nil
	}
	if len(d.fresh) == 0 {
		return Range{}, false, false, nil
	}
	c = take(&d.fresh, d.chunk)
	if c.To > d.lease {
		end := c.To
		if len(d.fresh) > 0 {
			end = d.fresh[len(d.fresh)-1].To
		}
		lease := min(c.To+d.ahead, end)
		if err := d.extend(lease); err != nil {
			return Range{}, false, false, err
		}
		d.lease = lease
	}
	return c, true, true, nil
}

// take cuts up to n keys off the front of rs.
func take(rs *Ranges, n int64) Range {
	r := (*rs)[0]
	if r.Len() <= n {
		*rs = (*rs)[1:]
		return r
	}
	(*rs)[0].From += n
	return Range{r.From, r.From + n}
}
