package main

import (
	"math/bits"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/mongoload/mongoload/internal/generate"
)

// The floor's record choice is written from YCSB's source apart from
// mongoload's; mongoload's generator, checked against YCSB itself by make
// ycsb-fidelity, is the oracle: from the same random source both must draw
// the same records.
func TestScrambledZipfianDrawsAsMongoload(t *testing.T) {
	for _, records := range []uint64{2, 1000, 10_000, 1_000_000} {
		ours, theirs := rand.New(rand.NewPCG(7, uint64(records))), rand.New(rand.NewPCG(7, uint64(records)))
		z := generate.NewScrambledZipfian(int64(records))
		for i := range 200_000 {
			a, b := scrambledZipfian(ours, records), z.Next(theirs, int64(records))
			if a != uint64(b) {
				t.Fatalf("%d records, draw %d: floor %d, mongoload %d", records, i, a, b)
			}
		}
	}
}

func TestKeyIsYCSBs(t *testing.T) {
	for _, k := range []uint64{0, 1, 2, 999, 1 << 40} {
		want := "user" + strconv.FormatInt(generate.FNVHash64(int64(k)), 10)
		if got := string(appendKey(nil, k)); got != want {
			t.Errorf("record %d: key %q, want %q", k, got, want)
		}
	}
}

// RandomByteIterator's bytes: position j of each six takes every value of
// ' ' + (bits & mask[j]) and nothing else (95 = 0b1011111: 64 values).
func TestFillYCSBBytes(t *testing.T) {
	masks := [6]int{31, 63, 95, 31, 63, 95}
	seen := [6]map[byte]bool{}
	for j := range seen {
		seen[j] = map[byte]bool{}
	}
	r := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, 100)
	for range 2000 {
		fillYCSB(r, b)
		for i, c := range b {
			seen[i%6][c] = true
		}
	}
	for j, m := range masks {
		if want := 1 << bits.OnesCount(uint(m)); len(seen[j]) != want {
			t.Errorf("position %d: %d distinct bytes, want %d", j, len(seen[j]), want)
		}
		for c := range seen[j] {
			if c < ' ' || int(c-' ')&^m != 0 {
				t.Errorf("position %d: byte %d is not ' ' + bits of mask %d", j, c, m)
			}
		}
	}
}
