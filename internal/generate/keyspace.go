package generate

import (
	"sort"
	"sync"
	"sync/atomic"
)

// KeySpace is a collection's key space: keys [first, end) exist; inserts
// take new keys at the end. Safe for concurrent use; reading it takes no
// lock.
//
// A key an operation's insert takes is held (in flight) until the
// operation is over (State.SettleKeys), and queries only draw keys below
// the oldest held one (Settled), as YCSB's acknowledged insert counter
// does: a read never targets a record whose insert has not returned, which
// matters most for the latest distribution, whose favourite key is the
// newest. Keys taken outside operations (Next: loading, seeding) count as
// existing at once.
type KeySpace struct {
	first int64
	end   atomic.Int64
	// part of parts: this process's share (see Partition); parts <= 1: all.
	part, parts int64

	// held counts the keys in queue[head:]; low is the oldest of them.
	// Both are written under mu and read without it (see Settled).
	held atomic.Int64
	low  atomic.Int64
	mu   sync.Mutex
	// queue holds the held keys in the order they were taken, which is
	// ascending, with whether each is settled yet.
	queue []heldKey
	head  int
}

type heldKey struct {
	k       int64
	settled bool
}

// NewKeySpace returns the key space of count keys starting at first (count
// below 0 counts as 0).
func NewKeySpace(first, count int64) *KeySpace {
	k := &KeySpace{first: first}
	k.end.Store(first + max(count, 0))
	return k
}

// Next returns a new key for an insert (atomic increment); it exists at once.
func (k *KeySpace) Next() int64 { return k.end.Add(1) - 1 }

// Bounds returns the keys handed out so far, [first, end), end read
// atomically: what a later run may count on once these inserts are done.
func (k *KeySpace) Bounds() (first, end int64) { return k.first, k.end.Load() }

// Settled returns [first, end) without the held keys and any key taken
// after the oldest of them: the keys a query may draw.
func (k *KeySpace) Settled() (first, end int64) {
	// hold stores low before raising held, and raises held before end, so
	// an end that includes a held key comes with held > 0 and a low at or
	// below that key.
	end = k.end.Load()
	if k.held.Load() > 0 {
		end = min(end, k.low.Load())
	}
	return k.first, end
}

// hold returns a new key that stays out of Settled until settle.
func (k *KeySpace) hold() int64 {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.head == len(k.queue) {
		k.low.Store(k.end.Load())
	}
	k.held.Add(1)
	key := k.end.Add(1) - 1
	k.queue = append(k.queue, heldKey{k: key})
	return key
}

// settle ends the hold on key; Settled then advances over every settled
// key at the front of the queue.
func (k *KeySpace) settle(key int64) {
	k.mu.Lock()
	defer k.mu.Unlock()
	q := k.queue[k.head:]
	if i := sort.Search(len(q), func(i int) bool { return q[i].k >= key }); i < len(q) && q[i].k == key {
		q[i].settled = true
	}
	for k.head < len(k.queue) && k.queue[k.head].settled {
		k.head++
	}
	if k.head == len(k.queue) {
		k.queue, k.head = k.queue[:0], 0
		k.held.Store(0)
		return
	}
	k.low.Store(k.queue[k.head].k)
	k.held.Store(int64(len(k.queue) - k.head))
	if k.head >= 1024 && k.head*2 >= len(k.queue) {
		n := copy(k.queue, k.queue[k.head:])
		k.queue, k.head = k.queue[:n], 0
	}
}

// Reset sets the key space to count keys starting at first. It is meant for
// setup, before any worker draws keys: the server's record of how many keys
// a collection holds is only known once connected, after compilation.
func (k *KeySpace) Reset(first, count int64) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.first = first
	k.end.Store(first + max(count, 0))
	k.part, k.parts = 0, 0 // the physical view again; Partition may follow
	k.queue, k.head = k.queue[:0], 0
	k.held.Store(0)
}
