package generate

import "sync/atomic"

// KeySpace is a collection's key space: keys [first, end) exist; inserts
// take new keys at the end. Safe for concurrent use (atomics only, no
// locks).
//
// A key handed out by Next counts as existing at once, before its insert
// has reached the server, so a query racing the insert may miss it. Load
// phases finish before the run, so this only touches keys inserted during
// the run, and only briefly.
type KeySpace struct {
	first int64
	end   atomic.Int64
}

// NewKeySpace returns the key space of count keys starting at first (count
// below 0 counts as 0).
func NewKeySpace(first, count int64) *KeySpace {
	k := &KeySpace{first: first}
	k.end.Store(first + max(count, 0))
	return k
}

// Next returns a new key for an insert (atomic increment).
func (k *KeySpace) Next() int64 { return k.end.Add(1) - 1 }

// Bounds returns the existing keys [first, end), end read atomically.
func (k *KeySpace) Bounds() (first, end int64) { return k.first, k.end.Load() }

// Reset sets the key space to count keys starting at first. It is meant for
// setup, before any worker draws keys: the server's record of how many keys
// a collection holds is only known once connected, after compilation.
func (k *KeySpace) Reset(first, count int64) {
	k.first = first
	k.end.Store(first + max(count, 0))
}
