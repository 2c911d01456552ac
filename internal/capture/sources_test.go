package capture

import (
	"os"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/capture/source"
)

// TestReadExport reads exported profiler documents in relaxed and
// canonical extended JSON: capture's own entries, system collections and
// other commands are left out and counted, a getMore adds its documents
// to its find's shape, an aggregation writing with $out is unsupported.
func TestReadExport(t *testing.T) {
	f, err := os.Open("testdata/profile.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p := &source.Profiled{Databases: []string{"shop"}}
	if err := p.ReadExport(f, "profile.jsonl"); err != nil {
		t.Fatal(err)
	}
	got := shapeCounts(t, p.Ops)
	want := map[string][2]float64{
		"find filter.customer_id":             {2, 9}, // 3 + 1, and the getMore's 5
		"update filter._id,update.$inc.views": {1, 0},
		"insert ":                             {1, 0},
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %v, want %v", k, got[k], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("shapes %v", got)
	}
	tl := p.Tally
	if tl.Garbage != 2 || tl.Unsupported["aggregate with $out/$merge"] != 1 || tl.Skipped["system collections"] != 1 ||
		tl.Skipped["command createIndexes (not an operation a workload replays)"] != 1 {
		t.Errorf("tally %+v", tl)
	}
	if tl.Read != 8 {
		t.Errorf("read %d entries, want 8 (capture's own one is not counted)", tl.Read)
	}
}

// TestReadExportNothingParses: an export in which no line parses is an
// error naming the file and the way to make one.
func TestReadExportNothingParses(t *testing.T) {
	p := &source.Profiled{}
	err := p.ReadExport(strings.NewReader("one\ntwo\n"), "x.json")
	if err == nil || !strings.Contains(err.Error(), "x.json: no line is a profiler document") || !strings.Contains(err.Error(), "mongoexport") {
		t.Errorf("err = %v", err)
	}
}

func readJSONLines(t *testing.T, path string) []bson.Raw {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []bson.Raw
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var d bson.Raw
		if err := bson.UnmarshalExtJSON([]byte(line), false, &d); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, d)
	}
	return out
}

// TestQueryStatsSource: two snapshots a minute apart, written to
// MongoDB's documented $queryStats output. Each shape counts the
// executions between them (400-100, 150-50, and 20 for a shape new in the
// second), other databases are left out, and the source is a rate.
func TestQueryStatsSource(t *testing.T) {
	first, second := readJSONLines(t, "testdata/querystats-1.jsonl"), readJSONLines(t, "testdata/querystats-2.jsonl")
	src := source.QueryStatsSource(first, second, time.Minute, []string{"shop"}, nil)
	got := shapeCounts(t, src.Ops)
	want := map[string][2]float64{
		"find filter.status.$eq": {300, 6000},
		"aggregate pipeline.0.$match.customer_id.$in,pipeline.1.$group.n.$sum": {100, 400}, // every stage's literals are placeholders
		"find filter.email.$eq": {20, 20},
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %v, want %v", k, got[k], w)
		}
	}
	if !src.Complete || src.To.Sub(src.From) != time.Minute {
		t.Errorf("complete %v over %v: want a rate over the minute between the snapshots", src.Complete, src.To.Sub(src.From))
	}
	one := source.QueryStatsSource(first, nil, 0, nil, nil)
	if one.Complete || len(one.Ops) != 3 {
		t.Errorf("one snapshot: complete %v with %d shapes; want the mix of 3 shapes, no rate", one.Complete, len(one.Ops))
	}
}
