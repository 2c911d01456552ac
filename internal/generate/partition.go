package generate

// Partitioning: when N processes share one collection (--partition i/N),
// process i sees a logical key space of its own and the key generator maps
// logical key k to the physical key first + (k-first)*N + i. The shares are
// disjoint for reads and inserts alike, and the keys 0..E-1 that a load
// wrote split evenly: process i owns every N-th one from i.

// Partition makes this key space process i's share of n. Call it at setup,
// after Reset has set the physical key count: the logical count becomes the
// number of existing physical keys that belong to this share.
func (k *KeySpace) Partition(i, n int64) {
	if n <= 1 {
		return
	}
	first, end := k.Bounds()
	own := (end - first - i + n - 1) / n // keys first+i, first+i+n, ... below end
	k.Reset(first, max(own, 0))
	k.part, k.parts = i, n // after Reset, which clears them
}

// physical maps a logical key to the key stored in the collection.
func (k *KeySpace) physical(key int64) int64 {
	if k.parts <= 1 {
		return key
	}
	return k.first + (key-k.first)*k.parts + k.part
}

// PhysicalEnd is one past the highest physical key handed out so far: what
// the collection's key count is, as far as this process knows.
func (k *KeySpace) PhysicalEnd() int64 {
	first, end := k.Bounds()
	if k.parts <= 1 || end == first {
		return end
	}
	return k.physical(end-1) + 1
}
