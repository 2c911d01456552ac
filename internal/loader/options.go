package loader

import (
	"runtime"
	"time"
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
