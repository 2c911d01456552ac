package results

import (
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/metrics"
)

// TestSummarizeOncePerInterval: every sink of an interval gets the same
// summary, computed once (the percentiles walk every histogram), and equal
// to what a fresh computation gives.
func TestSummarizeOncePerInterval(t *testing.T) {
	r := metrics.NewRecorder([]string{"find_by_id", "update_seats"}, metrics.Options{Shards: 2, Service: true})
	start := time.Date(2026, 1, 2, 15, 4, 15, 0, time.UTC)
	r.Reset(start)
	for i := range 4120 {
		svc := time.Duration(300+(i*7919)%2000) * time.Microsecond
		queue := time.Duration(3*i%500) * time.Microsecond
		r.Shard(i).RecordService(i%2, svc+queue, svc)
	}
	iv := r.Interval(start.Add(time.Second))
	a, b := Summarize(iv, 3*time.Second), Summarize(iv, 3*time.Second)
	if &a.Ops[0] != &b.Ops[0] {
		t.Fatal("the second Summarize computed the summary again")
	}
	fresh := summarize(iv, 3*time.Second)
	if fresh.Ops[0].P99 != a.Ops[0].P99 || fresh.Ops[1].Count != a.Ops[1].Count || fresh.T != a.T {
		t.Fatalf("shared summary %+v differs from a fresh one %+v", a, fresh)
	}
}
