package main

import (
	"math"
	"math/rand/v2"
	"strconv"
)

// What any YCSB A client must compute per operation, written from YCSB's
// CoreWorkload, ScrambledZipfianGenerator, ZipfianGenerator, Utils.fnvhash64
// and RandomByteIterator: the record (scrambled zipfian, as
// requestdistribution=zipfian draws it), its key and 100 fresh bytes.
// Written apart from mongoload's generate package on purpose: that package
// is the oracle its tests compare these with (ycsb_test.go).

const (
	zipfTheta = 0.99              // ZipfianGenerator.ZIPFIAN_CONSTANT
	zipfItems = 10_000_000_001    // ZipfianGenerator(0, ITEM_COUNT): max - min + 1 items
	zipfZetan = 26.46902820178302 // ScrambledZipfianGenerator.ZETAN: zeta(ITEM_COUNT, 0.99)
)

var (
	zipfAlpha = 1 / (1 - zipfTheta)
	zipfZeta2 = 1 + math.Pow(0.5, zipfTheta) // zeta(2, theta)
	zipfEta   = (1 - math.Pow(2.0/zipfItems, 1-zipfTheta)) / (1 - zipfZeta2/zipfZetan)
)

// scrambledZipfian draws a record of 0..records-1 as YCSB's
// ScrambledZipfianGenerator does: a zipfian rank over 10^10 items, hashed,
// modulo the record count, so hot records are spread over the key space.
func scrambledZipfian(r *rand.Rand, records uint64) uint64 {
	u := r.Float64()
	uz := u * zipfZetan
	var rank uint64
	switch {
	case uz < 1:
		rank = 0
	case uz < zipfZeta2:
		rank = 1
	default:
		rank = uint64(zipfItems * math.Pow(zipfEta*u-zipfEta+1, zipfAlpha))
	}
	return fnv64(rank) % records
}

// fnv64 is YCSB's Utils.fnvhash64: FNV-1a over the eight bytes of v, low
// byte first, made non-negative.
func fnv64(v uint64) uint64 {
	h := uint64(0xCBF29CE484222325)
	for i := 0; i < 8; i++ {
		h ^= v & 0xff
		v >>= 8
		h *= 1099511628211
	}
	if int64(h) < 0 && int64(h) != math.MinInt64 {
		h = uint64(-int64(h))
	}
	return h
}

// appendKey appends CoreWorkload.buildKeyName of a record (hashed keys,
// zero padding 1): "user" and the decimal of fnv64(record).
func appendKey(dst []byte, record uint64) []byte {
	dst = append(dst, "user"...)
	return strconv.AppendUint(dst, fnv64(record), 10)
}

// fillYCSB writes bytes as RandomByteIterator does: six printable bytes
// per 32-bit draw, byte j being ' ' + (bits >> 5j) & mask[j].
func fillYCSB(r *rand.Rand, b []byte) {
	masks := [6]uint32{31, 63, 95, 31, 63, 95}
	for i := 0; i < len(b); i += 6 {
		bits := r.Uint32()
		for j := 0; j < 6 && i+j < len(b); j++ {
			b[i+j] = byte(' ' + (bits>>(5*j))&masks[j])
		}
	}
}
