package generate

import (
	"runtime"
	"sync/atomic"
)

// KeySpace is a collection's key space: keys [first, end) exist; inserts
// take new keys at the end. Safe for concurrent use, and lock-free.
//
// A key an operation's insert takes is held (in flight) until the
// operation is over (State.SettleKeys), and queries only draw keys below
// the settled frontier (Settled), as YCSB's acknowledged insert counter
// does: a read never targets a record whose insert has not returned, which
// matters most for the latest distribution, whose favourite key is the
// newest. Keys taken outside operations (Next: loading, seeding) settle at
// once.
//
// The frontier works like YCSB's AcknowledgedCounterGenerator: settling a
// key sets its flag in a ring window, and whichever settler wins a
// compare-and-swap advances the frontier over the flags that are set; no
// goroutine ever waits for another.
type KeySpace struct {
	first int64
	end   atomic.Int64 // the next key to hand out
	// settled: every key below it is settled; advancing is the try-lock of
	// the one goroutine moving it.
	settled   atomic.Int64
	advancing atomic.Bool
	window    []atomic.Bool // window[k % len] is set when key k settled
	// part of parts: this process's share (see Partition); parts <= 1: all.
	part, parts int64
}

// windowSize bounds the keys held at once: operations in flight (the pool
// size, 100 by default; 1,000 in open loop) times their documents. A hold
// beyond it waits for the frontier to move: a case that only absurd batch
// sizes reach, and the price of never mistaking one held key for another.
const windowSize = 1 << 16

// NewKeySpace returns the key space of count keys starting at first (count
// below 0 counts as 0).
func NewKeySpace(first, count int64) *KeySpace {
	k := &KeySpace{first: first, window: make([]atomic.Bool, windowSize)}
	k.end.Store(first + max(count, 0))
	k.settled.Store(first + max(count, 0))
	return k
}

// Next returns a new key for an insert; it exists at once.
func (k *KeySpace) Next() int64 {
	key := k.end.Add(1) - 1
	k.settle(key)
	return key
}

// Bounds returns the keys handed out so far, [first, end), end read
// atomically: what a later run may count on once these inserts are done.
func (k *KeySpace) Bounds() (first, end int64) { return k.first, k.end.Load() }

// Settled returns the keys a query may draw: [first, the frontier below
// which every key handed out has settled).
func (k *KeySpace) Settled() (first, end int64) { return k.first, k.settled.Load() }

// hold returns a new key that stays out of Settled until settle.
func (k *KeySpace) hold() int64 {
	key := k.end.Add(1) - 1
	for key-k.settled.Load() >= windowSize {
		runtime.Gosched() // the window is full: see windowSize
	}
	return key
}

// settle ends the hold on key and advances the frontier when it can.
func (k *KeySpace) settle(key int64) {
	if key < k.settled.Load() {
		return
	}
	k.window[key%windowSize].Store(true)
	k.advance()
}

// advance moves the frontier over settled keys. A settler that loses the
// try-lock leaves its flag for the winner, which looks again after
// releasing, so no flag is left behind.
func (k *KeySpace) advance() {
	for k.advancing.CompareAndSwap(false, true) {
		for {
			s := k.settled.Load()
			if s >= k.end.Load() || !k.window[s%windowSize].Load() {
				break
			}
			k.window[s%windowSize].Store(false)
			k.settled.Store(s + 1)
		}
		k.advancing.Store(false)
		s := k.settled.Load()
		if s >= k.end.Load() || !k.window[s%windowSize].Load() {
			return
		}
	}
}

// Reset sets the key space to count keys starting at first. It is meant for
// setup, before any worker draws keys: the server's record of how many keys
// a collection holds is only known once connected, after compilation.
func (k *KeySpace) Reset(first, count int64) {
	k.first = first
	k.end.Store(first + max(count, 0))
	k.settled.Store(first + max(count, 0))
	k.part, k.parts = 0, 0 // the physical view again; Partition may follow
	for i := range k.window {
		k.window[i].Store(false)
	}
}
