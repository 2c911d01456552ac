package metrics

import (
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkRecord shows the hot path on one goroutine: it must report
// 0 allocs/op.
func BenchmarkRecord(b *testing.B) {
	r := NewRecorder([]string{"find", "update"}, Options{Shards: 4})
	s := r.Shard(0)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s.Record(i&1, time.Duration(i&0xffff)*time.Microsecond)
	}
}

// BenchmarkRecordParallel shows the hot path under contention, one shard per
// goroutine as the engine assigns them: it must report 0 allocs/op.
func BenchmarkRecordParallel(b *testing.B) {
	r := NewRecorder([]string{"find", "update"}, Options{})
	var worker atomic.Int64
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		s := r.Shard(int(worker.Add(1)))
		for i := 0; pb.Next(); i++ {
			s.Record(i&1, time.Duration(i&0xffff)*time.Microsecond)
		}
	})
}

// BenchmarkRecordError shows that a recurring error class does not allocate.
func BenchmarkRecordError(b *testing.B) {
	r := NewRecorder([]string{"insert"}, Options{Shards: 1})
	s := r.Shard(0)
	// Give the shard's set the class's map: interval cuts clear maps but
	// keep them.
	for range 2 {
		s.RecordError(0, "DuplicateKey(11000)")
		r.Interval(time.Now())
	}
	b.ReportAllocs()
	for b.Loop() {
		s.RecordError(0, "DuplicateKey(11000)")
	}
}

// BenchmarkInterval shows the collector's cost per interval cut.
func BenchmarkInterval(b *testing.B) {
	r := NewRecorder([]string{"a", "b", "c", "d", "e", "f", "g", "h"}, Options{})
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		for w := range r.Shards() {
			r.Shard(w).Record(w&7, time.Duration(i+w)*time.Microsecond)
		}
		r.Interval(time.Now()).Release()
	}
}

// BenchmarkRecordDocs shows that recording what the server did with
// documents along with the latency costs no allocation: it must report
// 0 allocs/op.
func BenchmarkRecordDocs(b *testing.B) {
	r := NewRecorder([]string{"find", "update"}, Options{Shards: 4})
	s := r.Shard(0)
	d := Docs{Returned: 3, Shaped: 1}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s.RecordDocs(i&1, time.Duration(i&0xffff)*time.Microsecond, d)
	}
}
