package capture

import (
	"math"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/capture/source"
)

// TestProfilerWeightedByQueryStats: a profiler sampling one operation in
// ten saw 30 finds by status (with their values) and 5 inserts; $queryStats
// counted 1,000 of those finds over the same window. The find takes
// $queryStats' 1,000 executions and keeps the profiler's statuses; the
// inserts, which $queryStats does not record, count 5 x 10; the rate is
// $queryStats'; the file says so and lists the blind spots.
func TestProfilerWeightedByQueryStats(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	res := captured(nil, Options{})
	prof := &source.Profiled{Emit: res.Shapes.Add}
	for i := range 30 {
		prof.Keep(find(bson.D{{Key: "status", Value: statuses[i%4]}}, t0.Add(time.Duration(i)*300*time.Millisecond)))
	}
	for i := range 5 {
		prof.Keep(source.Op{DB: "shop", Coll: "orders", Kind: source.KindInsert, Count: 1, Inserted: 1, TS: t0.Add(time.Duration(i) * 2 * time.Second)})
	}
	ps := prof.Source("profiler", "test")
	ps.Complete, ps.Sampling, ps.From, ps.To = true, 0.1, t0, t0.Add(10*time.Second)
	f, _ := bson.Marshal(bson.D{{Key: "status", Value: bson.D{{Key: "$eq", Value: "?string"}}}})
	qp := &source.Profiled{Emit: res.Shapes.Add}
	qp.Keep(source.Op{DB: "shop", Coll: "orders", Kind: source.KindFind, Filter: f, Count: 1000, Returned: 3000, Aggregate: true, TS: t0.Add(10 * time.Second)})
	qs := qp.Source("$queryStats", "test")
	qs.Complete, qs.From, qs.To = true, t0, t0.Add(10*time.Second)
	res.Sources = []*source.Source{qs, ps}
	w := res.Workload("weighted")
	counts := map[string]float64{}
	for i, sh := range w.Kept {
		counts[sh.Kind] = sh.Count
		if sh.Kind == source.KindFind && !strings.Contains(write(t, w), "paid") {
			t.Errorf("the find lost the profiler's values: %v", w.Config.Operations[i].Filter)
		}
	}
	if len(w.Kept) != 2 || counts[source.KindFind] != 1000 || math.Abs(counts[source.KindInsert]-50) > 1e-9 {
		t.Errorf("shapes %d, counts %v; want the find at 1000 and the inserts at 50", len(w.Kept), counts)
	}
	if math.Abs(w.Rate-104.9) > 0.1 {
		t.Errorf("rate %.2f, want (1050-1)/10s", w.Rate)
	}
	text := strings.Join(w.Header, "\n")
	for _, want := range []string{"weighted: 1 shapes", "scaled by 10", "blind spot: profiler: sampleRate 0.1", "placeholders"} {
		if !strings.Contains(text, want) {
			t.Errorf("the header lacks %q:\n%s", want, text)
		}
	}
}

// TestBlindSpots: each source says what it cannot see.
func TestBlindSpots(t *testing.T) {
	for _, tt := range []struct {
		src  source.Source
		want string
	}{
		{source.Source{Name: "profiler", Complete: false}, "faster than slowms"},
		{source.Source{Name: "profiler", Complete: true, Sampling: 0.5}, "one operation in 2"},
		{source.Source{Name: "log mongod.log"}, "slower than slowms"},
		{source.Source{Name: "$queryStats"}, "writes (insert, update, delete, findAndModify) are not recorded"},
		{source.Source{Name: "profiler export x.json"}, "says nothing of the profiler's level"},
	} {
		res := &Result{Sources: []*source.Source{&tt.src}, Shapes: NewShapes(1)}
		if got := strings.Join(res.blindSpots(), "\n"); !strings.Contains(got, tt.want) {
			t.Errorf("%s: blind spots %q lack %q", tt.src.Name, got, tt.want)
		}
	}
	ok := &Result{Sources: []*source.Source{{Name: "profiler", Complete: true, Sampling: 1}}, Shapes: NewShapes(1)}
	if b := ok.blindSpots(); len(b) > 0 {
		t.Errorf("a full profiler has blind spots: %q", b)
	}
}
