package analysis

import (
	"math"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/results/resultstest"
)

// vm is one option of seed 003 (benchANT, "Data-Driven Capacity Planning
// with MongoDB on OTC Infrastructure"): its monthly cost in EUR and the
// throughput and latency the blog's charts show, scaled down 10x in
// throughput so the test stays fast.
type vm struct {
	label     string
	cost      float64
	tput, lat float64
}

var seed003 = []vm{
	{"m3-xlarge-8", 797.76, 650, 11.5},   // the baseline: ~6.5k ops/s at 80% CPU
	{"c4-xlarge-4", 694.08, 610, 12.3},   // below the baseline, slower
	{"s3-2xlarge-4", 1026.72, 683, 11.0}, // +5%
	{"s3-2xlarge-8", 1180.08, 1625, 4.6}, // 2.5x
	{"m4-2xlarge-8", 1625.04, 1612, 4.7}, // +148%
	{"c4-2xlarge-4", 1377.12, 2314, 3.2}, // +256%
}

func seed003Inputs() []CompareInput {
	var in []CompareInput
	for _, v := range seed003 {
		res := resultstest.Result(results.LoadModel{Type: results.Closed, Concurrency: 75}, resultstest.Step{Level: 75, Throughput: v.tput, LatencyMs: v.lat}, resultstest.T0, v.label)
		res.Cost = &results.Cost{Monthly: v.cost, Currency: "EUR"}
		in = append(in, CompareInput{File: v.label + ".json", Result: res})
	}
	return in
}

func TestCompareCapacityPlanning(t *testing.T) {
	var objs []RelObjective
	for _, s := range []string{"throughput>=2x", "read.p95<=+5%"} {
		o, err := ParseRelObjective(s)
		if err != nil {
			t.Fatal(err)
		}
		objs = append(objs, o)
	}
	c, err := Compare(seed003Inputs(), 0, objs)
	if err != nil {
		t.Fatal(err)
	}
	tpc := findRow(c, "throughput-per-cost")
	if tpc == nil || tpc.Unit != "ops/s per 100 EUR/month" {
		t.Fatalf("no throughput per cost row: %+v", c.Rows)
	}
	// The blog: the baseline's ratio is 8 ops/s per EUR (here 10x less
	// throughput: 81.5 per 100 EUR), s3-2xlarge-8's is ~75% better and
	// c4-2xlarge-4's about twice the baseline's.
	if v := *tpc.Values[0]; math.Abs(v-81.478) > 0.01 {
		t.Errorf("baseline throughput per cost %v, want 81.478", v)
	}
	if ch := *tpc.Change[3]; ch < 60 || ch > 80 {
		t.Errorf("s3-2xlarge-8: %+.1f%% throughput per cost, want about +70%%", ch)
	}
	if ch := *tpc.Change[5]; ch < 90 || ch > 120 {
		t.Errorf("c4-2xlarge-4: %+.1f%%, want about +100%%", ch)
	}
	want := []bool{false, false, false, true, true, true} // the baseline is not judged
	for i, in := range c.Inputs {
		if i == 0 {
			if in.MeetsAll != nil {
				t.Error("the baseline was judged")
			}
			continue
		}
		if *in.MeetsAll != want[i] {
			t.Errorf("%s meets all: %v, want %v", in.Label, *in.MeetsAll, want[i])
		}
	}
	if c.At != "at 75 workers, the highest load every input ran" {
		t.Errorf("at %q", c.At)
	}
}

// Seed 000: the same sweep with readPreference primary and
// secondaryPreferred; the same saturation point, a lower p99 at 128.
func TestCompareSweeps(t *testing.T) {
	primary := resultstest.Seed000()
	secondary := resultstest.Seed000()
	for i := range secondary {
		secondary[i].LatencyMs *= 0.76
	}
	in := []CompareInput{
		{File: "primary.json", Sweep: resultstest.Sweep("concurrency", "primary", primary)},
		{File: "secondary.json", Sweep: resultstest.Sweep("concurrency", "secondaryPreferred", secondary)},
	}
	c, err := Compare(in, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []struct {
		key        string
		base, then float64
		change     float64
	}{
		{"throughput", 1361, 1361, 0},       // no gain: the same ceiling
		{"saturation", 48, 48, 0},           // identical
		{"sweetspot", 32, 32, 0},            // identical
		{"point.throughput", 1331, 1331, 0}, // at 128 workers
	} {
		r := findRow(c, want.key)
		if r == nil {
			t.Fatalf("no row %s", want.key)
		}
		if math.Abs(*r.Values[0]-want.base) > 1 || math.Abs(*r.Values[1]-want.then) > 1 || math.Abs(*r.Change[1]-want.change) > 0.5 {
			t.Errorf("%s: %v -> %v (%v%%), want %v -> %v", want.key, *r.Values[0], *r.Values[1], *r.Change[1], want.base, want.then)
		}
	}
	if r := findRow(c, "p99"); *r.Change[1] > -20 || !strings.Contains(r.Metric, "at 128 workers") {
		t.Errorf("p99 %s: %+v%%, want about -24%%", r.Metric, *r.Change[1])
	}
	if r := findRow(c, "findOne.avg"); r == nil || r.Values[1] == nil {
		t.Error("no average per operation type")
	}
}

func TestCompareRefusals(t *testing.T) {
	in := seed003Inputs()[:2]
	if _, err := Compare(in[:1], 0, nil); err == nil {
		t.Error("one input accepted")
	}
	o, _ := ParseRelObjective("p99.9<=+5%")
	if _, err := Compare(in, 0, []RelObjective{o}); err == nil || !strings.Contains(err.Error(), `no metric "p99.9"`) {
		t.Errorf("unknown metric: %v", err)
	}
	in[1].Result.Cost = &results.Cost{Monthly: 700, Currency: "USD"}
	c, err := Compare(in, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if findRow(c, "throughput-per-cost") != nil || len(c.Notes) == 0 {
		t.Errorf("two currencies: rows %v notes %v", rowKeys(c), c.Notes)
	}
}

func TestParseRelObjective(t *testing.T) {
	for _, c := range []struct {
		in      string
		metric  string
		op      string
		ratio   bool
		percent bool
		value   float64
		base    float64 // a baseline value
		target  float64 // what the objective then compares with
	}{
		{"throughput>=2x", "throughput", ">=", true, false, 2, 1000, 2000},     // twice the baseline
		{"read.p95<=+5%", "read.p95", "<=", false, true, 5, 10, 10.5},          // at most 5% above
		{"p99 < -10%", "p99", "<", false, true, -10, 20, 18},                   // 10% below
		{"p99<=20ms", "p99", "<=", false, false, 20, 99, 20},                   // absolute, in ms
		{"p99<=1.5s", "p99", "<=", false, false, 1500, 99, 1500},               // seconds are converted
		{"errors<=0.1%", "errors", "<=", false, false, 0.1, 5, 0.1},            // an absolute percentage
		{"tpc>=1.5x", "throughput-per-cost", ">=", true, false, 1.5, 100, 150}, // an alias
		{"throughput>5,000", "throughput", ">", false, false, 5000, 1, 5000},   // separators
	} {
		o, err := ParseRelObjective(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if o.Metric != c.metric || o.Op != c.op || o.Ratio != c.ratio || o.Percent != c.percent || o.Value != c.value || math.Abs(o.target(c.base)-c.target) > 1e-9 {
			t.Errorf("%s: %+v target %v", c.in, o, o.target(c.base))
		}
	}
	// Out of range, or met by every input (issue 25 #7's sibling in compare).
	for _, bad := range []string{"throughput", "throughput>=", "p99<=fast", ">=2x",
		"throughput>=-2x", "p99<=-150%", "throughput>=-5", "throughput>=0x", "p99>=-100%", "throughput>=NaN", "p99<=Infx"} {
		if _, err := ParseRelObjective(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestCompareDocs: compare shows each input's share of empty results and
// documents returned per operation, from the results' own counts, and
// notes the input whose operations mostly found nothing.
func TestCompareDocs(t *testing.T) {
	in := seed003Inputs()[:2]
	in[0].Result.Totals.Docs = &metrics.Docs{Returned: 3 * in[0].Result.Totals.Operations, Shaped: 400, Empty: 100}
	in[1].Result.Totals.Docs = &metrics.Docs{Shaped: 400, Empty: 392}
	c, err := Compare(in, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]results.ComparisonRow{}
	for _, r := range c.Rows {
		rows[r.Key] = r
	}
	empty, ret := rows["empty"], rows["returnedPerOp"]
	if len(empty.Values) != 2 || *empty.Values[0] != 25 || *empty.Values[1] != 98 || *ret.Values[0] != 3 || *ret.Values[1] != 0 {
		t.Fatalf("empty %v, returned per op %v", empty.Values, ret.Values)
	}
	if notes := strings.Join(c.Notes, "\n"); !strings.Contains(notes, in[1].Result.Label+": 98% of its reads") || strings.Contains(notes, in[0].Result.Label+": ") {
		t.Errorf("notes: %s", notes)
	}
}
