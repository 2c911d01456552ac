package generate

import (
	"math"
	"sync"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

const seriesTemplate = `{_id: {$gen: key}, device: {$gen: series, count: 7, prefix: d},
  at: {$gen: seriesTime, start: 2024-01-01, every: 10s, jitter: 9s},
  t: {$gen: cycle, mean: 20, amplitude: 5, period: 1h},
  b: {$gen: walk, min: 0, max: 100, start: 50, step: 0.5}}`

type reading struct {
	device string
	at     int64
	t, b   float64
}

func readingOf(t *testing.T, raw []byte) reading {
	t.Helper()
	d := bson.Raw(raw)
	return reading{device: d.Lookup("device").StringValue(), at: d.Lookup("at").DateTime(),
		t: d.Lookup("t").Double(), b: d.Lookup("b").Double()}
}

// Each series' times strictly increase with the key, whichever worker
// makes which document, and within a series consecutive readings are
// `every` apart give or take the jitter: the invariant a time-series
// collection's buckets depend on.
func TestSeriesTimesIncreasePerSeries(t *testing.T) {
	ks := NewKeySpace(0, 0)
	doc, err := CompileDocument(parse(t, seriesTemplate), &Env{Mode: Insert, KeySpace: func(string) *KeySpace { return ks }})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	byKey := map[int64]reading{}
	var wg sync.WaitGroup
	for w := range 4 { // concurrent workers, each its own State
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := NewState(1, uint64(w))
			for range 500 {
				raw := doc.Append(nil, st)
				k := bson.Raw(raw).Lookup("_id").AsInt64()
				mu.Lock()
				byKey[k] = readingOf(t, raw)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	last := map[string]int64{}
	for k := range int64(len(byKey)) {
		r, ok := byKey[k]
		if !ok {
			t.Fatalf("key %d missing", k)
		}
		if want := "d" + string(rune('0'+k%7)); r.device != want {
			t.Fatalf("key %d is series %s, want %s", k, r.device, want)
		}
		if prev, ok := last[r.device]; ok && (r.at <= prev || r.at-prev > 19_000) {
			t.Fatalf("series %s: reading at %d after %d (every 10s, jitter 9s)", r.device, r.at, prev)
		}
		last[r.device] = r.at
		// cycle follows the reading's own time: mean + amplitude*sin(2πt/period)
		want := 20 + 5*math.Sin(2*math.Pi*math.Mod(float64(r.at), 3_600_000)/3_600_000)
		if math.Abs(r.t-want) > 1e-9 {
			t.Fatalf("cycle at %d is %v, want %v", r.at, r.t, want)
		}
		if r.b < 0 || r.b > 100 {
			t.Fatalf("walk %v outside [0, 100]", r.b)
		}
	}
}

// Loading makes the same reading of a key however often and by whichever
// worker (BeginDocument pins it), so a load in key order writes each
// series in time order; a walk moves by steps, not fresh draws.
func TestSeriesLoadAndWalk(t *testing.T) {
	ks := NewKeySpace(0, 0)
	doc, err := CompileDocument(parse(t, seriesTemplate), &Env{Mode: Insert, KeySpace: func(string) *KeySpace { return ks }})
	if err != nil {
		t.Fatal(err)
	}
	st := NewState(1, 1)
	st.BeginDocument(ks, 703, 9, 0)
	a := readingOf(t, doc.Append(nil, st))
	st.BeginDocument(ks, 703, 9, 0)
	b := readingOf(t, doc.Append(nil, st))
	if a.device != b.device || a.at != b.at || a.device != "d3" {
		t.Fatalf("key 703 made %+v then %+v; want series d3 both times", a, b)
	}
	st.EndDocuments()
	var steps, prev float64
	prev = math.NaN()
	for range 2000 {
		r := readingOf(t, doc.Append(nil, st))
		if r.device == "d0" {
			if !math.IsNaN(prev) {
				steps = max(steps, math.Abs(r.b-prev))
			}
			prev = r.b
		}
	}
	if steps == 0 || steps > 3 { // sd 0.5: a step past 6 sd would be no walk
		t.Fatalf("the walk's largest step in series d0 was %v", steps)
	}
}
