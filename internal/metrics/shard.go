package metrics

import (
	"sync"
	"time"
)

// Shard is one of a Recorder's recording slots, shared by several workers.
// Its methods are safe for concurrent use. Get one with Recorder.Shard.
//
// Only operations that succeeded should be recorded with Record or
// RecordService; a failed operation is counted with RecordError alone, so
// that a latency histogram never mixes fast failures with real work.
type Shard struct {
	mu  sync.Mutex
	cur *set // receives recordings; drained into each interval

	// pad keeps two shards' mutexes off the same cache line, so workers on
	// different CPUs do not contend through false sharing.
	_ [64]byte
}

// Record records the latency of one successful operation op (an index into
// Recorder.Ops). Latencies above Highest are recorded as Highest and counted
// in the operation's Overflow. It does not allocate.
func (s *Shard) Record(op int, latency time.Duration) {
	s.RecordDocs(op, latency, Docs{})
}

// RecordDocs is Record with what the server did with documents (the
// executor's counts), added under the same lock. It does not allocate.
func (s *Shard) RecordDocs(op int, latency time.Duration, d Docs) {
	v, clamped := micros(latency)
	s.mu.Lock()
	c := s.cur
	c.docs[op].Add(d)
	// RecordValue cannot fail for a clamped value; count a failure as overflow
	// anyway, so that no sample could ever vanish without a trace.
	if c.lat[op].RecordValue(v) != nil || clamped {
		c.overflow[op]++
	}
	s.mu.Unlock()
}

// RecordService records one successful operation of an open-loop run:
// response is measured from the time the operation was scheduled to start
// (so it includes any queueing behind a slow server: no coordinated
// omission), service from the time it was actually sent. response goes to
// the latency histogram; service goes to the service histogram and is
// ignored unless the Recorder was made with Options.Service. A sample with
// either value above Highest counts once in Overflow. It does not allocate.
func (s *Shard) RecordService(op int, response, service time.Duration) {
	s.RecordServiceDocs(op, response, service, Docs{})
}

// RecordServiceDocs is RecordService with the operation's document counts.
func (s *Shard) RecordServiceDocs(op int, response, service time.Duration, d Docs) {
	rv, rc := micros(response)
	sv, sc := micros(service)
	s.mu.Lock()
	c := s.cur
	c.docs[op].Add(d)
	failed := c.lat[op].RecordValue(rv) != nil
	if c.svc != nil {
		failed = c.svc[op].RecordValue(sv) != nil || failed
	} else {
		sc = false
	}
	if failed || rc || sc {
		c.overflow[op]++
	}
	s.mu.Unlock()
}

// RecordError counts one failed operation op in the error class class, such
// as "DuplicateKey(11000)", "network" or "timeout". Errors are rare, so a map
// under the shard lock is cheap enough; only an operation's first error of a
// class in a recorder's lifetime allocates.
func (s *Shard) RecordError(op int, class string) {
	s.mu.Lock()
	c := s.cur
	m := c.errors[op]
	if m == nil {
		m = make(map[string]int64)
		c.errors[op] = m
	}
	m[class]++
	s.mu.Unlock()
}

// The outcomes of an operation that succeeded after the driver retried a
// failed command: a retryable read or write that a fault did not cost.
const (
	RetriedRead  = "retried: read"
	RetriedWrite = "retried: write"
)

// FailedAttempt prefixes the outcome (its error class follows) of a
// transaction's step or a read-modify-write's part whose command failed:
// the operation it is part of counts the error, or retries.
const FailedAttempt = "failed attempt: "

// RecordOutcome counts n occurrences of a named outcome of operation op that
// is neither a success nor an error: a transaction aborted by the workload's
// own condition ("aborted: insufficient funds"), or retries it needed
// ("retry: TransientTransactionError"). Like errors, they are rare enough
// for a map under the shard lock.
func (s *Shard) RecordOutcome(op int, name string, n int64) {
	s.mu.Lock()
	c := s.cur
	m := c.outcomes[op]
	if m == nil {
		m = make(map[string]int64)
		c.outcomes[op] = m
	}
	m[name] += n
	s.mu.Unlock()
}

// drainOp adds what the shard recorded for operation op to o and empties
// it, under the shard's lock.
func (s *Shard) drainOp(op int, o *OpInterval) {
	s.mu.Lock()
	s.cur.addOpTo(op, o)
	s.cur.resetOp(op)
	s.mu.Unlock()
}
