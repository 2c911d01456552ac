package loader

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mongoload/mongoload/internal/generate"
	"github.com/mongoload/mongoload/internal/workload"
)

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
				buf = generate.PrependID(buf, at, generate.LoadObjectID(p.rec.Epoch, k))
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
