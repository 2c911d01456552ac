// Package metrics records operation latencies into HDR histograms without a
// global lock, and hands them out as one immutable snapshot per interval.
//
// The hot path is Shard.Record: a per-shard mutex and one histogram
// increment, with no allocation. Workers share a small fixed set of shards
// (by default GOMAXPROCS, at most MaxDefaultShards: only that many workers
// record at the same instant; Options.Shards sets another count), because one histogram at mongoload's geometry
// (1 µs to 1 h, 3 significant digits) is about 190 KB and a run can have
// thousands of workers. At each interval the collector swaps every shard's
// histograms for clean spares, holding each shard's lock only for the pointer
// swap, and merges the swapped-out ones into the Interval.
//
// Whole-run figures come from Totals, which adds the interval histograms
// together: percentiles are never averaged.
package metrics
