package generate

import "testing"

// TestPartitionsAreDisjointAndCover: three partitions of 10 loaded keys own
// 4, 3 and 3 of them, together all; their inserts never collide.
func TestPartitionsAreDisjointAndCover(t *testing.T) {
	seen := map[int64]int{}
	for i := int64(0); i < 3; i++ {
		ks := NewKeySpace(0, 10)
		ks.Partition(i, 3)
		first, end := ks.Bounds()
		want := []int64{4, 3, 3}[i]
		if end-first != want {
			t.Fatalf("partition %d owns %d keys, want %d", i, end-first, want)
		}
		for k := first; k < end; k++ {
			seen[ks.physical(k)]++
		}
		for j := 0; j < 5; j++ { // inserts during the run
			p := ks.physical(ks.Next())
			if p < 10 {
				t.Fatalf("partition %d inserted over loaded key %d", i, p)
			}
			seen[p]++
		}
		if pe := ks.PhysicalEnd(); pe < 10 {
			t.Fatalf("physical end %d", pe)
		}
	}
	for k := int64(0); k < 10; k++ {
		if seen[k] != 1 {
			t.Fatalf("loaded key %d owned by %d partitions", k, seen[k])
		}
	}
	for k, n := range seen {
		if n != 1 {
			t.Fatalf("key %d used by %d partitions", k, n)
		}
	}
}
