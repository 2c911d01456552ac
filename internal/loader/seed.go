// Package loader fills collections with generated documents: parallel,
// unordered batched inserts with a progress report. Keys come from each
// collection's key space, so the run that follows reads documents that exist.
package loader

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mongoload/mongoload/internal/generate"
	"github.com/mongoload/mongoload/internal/workload"
)

// Inserter writes one batch of BSON documents into a collection.
type Inserter interface {
	InsertBatch(ctx context.Context, col *workload.Collection, docs [][]byte) error
}

// Progress is a snapshot of a load, reported about once a second and at the end.
type Progress struct {
	Collection string
	Done       int64 // documents inserted
	Total      int64 // documents to insert
	Bytes      int64 // BSON bytes inserted
	Elapsed    time.Duration
	Final      bool
}

// Rate is documents per second so far.
func (p Progress) Rate() float64 {
	if p.Elapsed <= 0 {
		return 0
	}
	return float64(p.Done) / p.Elapsed.Seconds()
}

// ETA estimates the time left at the rate so far.
func (p Progress) ETA() time.Duration {
	r := p.Rate()
	if r <= 0 || p.Done >= p.Total {
		return 0
	}
	return time.Duration(float64(p.Total-p.Done) / r * float64(time.Second))
}

// Options shape a load.
type Options struct {
	Target     int64 // documents the collection must hold (keys handed out)
	BatchSize  int
	Workers    int
	RandomSeed uint64
	OnProgress func(Progress)
}

// Fill inserts documents into col until its key space holds Target keys.
// An interrupted fill returns ctx's error after the batches in flight end.
func Fill(ctx context.Context, ins Inserter, col *workload.Collection, o Options) (Progress, error) {
	_, end := col.Keys.Bounds()
	p := Progress{Collection: col.Namespace(), Total: o.Target - end}
	if p.Total <= 0 {
		p.Total, p.Final = 0, true
		return p, nil
	}
	if o.BatchSize < 1 {
		o.BatchSize = 1000
	}
	if o.Workers < 1 {
		o.Workers = 4
	}
	var (
		left        atomic.Int64
		done, bytes atomic.Int64
		firstErr    error
		errOnce     sync.Once
		wg          sync.WaitGroup
	)
	left.Store(p.Total)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	start := time.Now()
	for w := 0; w < o.Workers; w++ {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			st := generate.NewState(o.RandomSeed, 1<<32+uint64(id))
			var buf []byte
			docs := make([][]byte, 0, o.BatchSize)
			ends := make([]int, 0, o.BatchSize)
			for ctx.Err() == nil {
				n := min(int64(o.BatchSize), left.Add(-int64(o.BatchSize))+int64(o.BatchSize))
				if n <= 0 {
					return
				}
				buf, ends = buf[:0], ends[:0]
				for i := int64(0); i < n; i++ {
					buf = col.Doc.Append(buf, st)
					ends = append(ends, len(buf))
				}
				docs = docs[:0]
				from := 0
				for _, e := range ends {
					docs = append(docs, buf[from:e:e])
					from = e
				}
				if err := ins.InsertBatch(ctx, col, docs); err != nil {
					errOnce.Do(func() { firstErr = err; cancel() })
					return
				}
				done.Add(n)
				bytes.Add(int64(len(buf)))
			}
		}(w)
	}
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	report := func(final bool) {
		p.Done, p.Bytes, p.Elapsed, p.Final = done.Load(), bytes.Load(), time.Since(start), final
		if o.OnProgress != nil {
			o.OnProgress(p)
		}
	}
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-finished:
			report(true)
			if firstErr != nil {
				return p, firstErr
			}
			return p, context.Cause(ctx)
		case <-tick.C:
			report(false)
		}
	}
}
