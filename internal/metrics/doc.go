// Package metrics records operation latencies into HDR histograms without a
// global lock, and hands them out as one immutable snapshot per interval.
//
// The hot path is Shard.Record: a per-shard mutex and one histogram
// increment, with no allocation. Workers share a small fixed set of shards
// (by default GOMAXPROCS, at most MaxDefaultShards: only that many workers
// record at the same instant; Options.Shards sets another count), because one histogram at mongoload's geometry
// (1 µs to 1 h, 3 significant digits) is about 190 KB and a run can have
// thousands of workers. At each interval the collector adds each shard's
// histogram of each operation into the Interval and empties it, under that
// shard's lock, one operation at a time (no spare copy of every histogram).
//
// Whole-run figures come from Totals, which adds the interval histograms
// together: percentiles are never averaged.
package metrics
