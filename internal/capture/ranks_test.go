package capture

import (
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/capture/source"
	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/generate"
)

// zipf draws ranks 0..n-1 with weight (r+1)^-s.
type zipf struct{ cum []float64 }

func newZipf(n int, s float64) zipf {
	z := zipf{cum: make([]float64, n)}
	acc := 0.0
	for r := range n {
		acc += math.Pow(float64(r+1), -s)
		z.cum[r] = acc
	}
	for r := range z.cum {
		z.cum[r] /= acc
	}
	return z
}

func (z zipf) draw(r *rand.Rand) int {
	return min(sort.SearchFloat64s(z.cum, r.Float64()), len(z.cum)-1)
}

// tenantName is a private-looking name of rank r, scrambled so that
// neither its order nor its number says its rank.
func tenantName(r int) string { return fmt.Sprintf("acme-%04d", 1000+(r*7919+4243)%9000) }

// hotCapture is a capture of lookups by tenant on a sampled collection
// whose tenant takes 400 values with a Zipf law (the hottest ~ 19%), the
// lookups drawn from the same law.
func hotCapture(t *testing.T) (*Result, zipf) {
	t.Helper()
	z := newZipf(400, 1.1)
	r := rand.New(rand.NewPCG(3, 4))
	c := NewCollection("shop", "accounts")
	for i := range 1000 {
		d, _ := bson.Marshal(bson.D{{Key: "_id", Value: int32(i)}, {Key: "tenant", Value: tenantName(z.draw(r))}})
		c.AddSample(d, r)
	}
	c.Count = 20000
	res := &Result{Opts: Options{Now: time.Now}, Shapes: NewShapes(1), Collections: []*Collection{c}}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 3000 {
		f, _ := bson.Marshal(bson.D{{Key: "tenant", Value: tenantName(z.draw(r))}})
		res.Shapes.Add(source.Op{DB: "shop", Coll: "accounts", Kind: source.KindFind, Filter: f, Count: 1, TS: t0.Add(time.Duration(i) * time.Millisecond)})
	}
	res.Sources = []*source.Source{{Name: "test", Complete: true, From: t0, To: t0.Add(3 * time.Second), Executions: 3000}}
	return res, z
}

// draws compiles v and draws n values of it, as strings.
func draws(t *testing.T, v config.Value, n int) []string {
	t.Helper()
	g, err := generate.Compile(v, &generate.Env{})
	if err != nil {
		t.Fatalf("compile %s: %v", v, err)
	}
	st := generate.NewState(7, 1)
	out := make([]string, n)
	for i := range out {
		typ, b := g.Append(nil, st)
		out[i] = bson.RawValue{Type: typ, Value: b}.String()
	}
	return out
}

func topShare(xs []string) (string, float64) {
	n := map[string]int{}
	best := ""
	for _, x := range xs {
		n[x]++
		if n[x] > n[best] || n[x] == n[best] && x < best {
			best = x
		}
	}
	return best, float64(n[best]) / float64(len(xs))
}

// TestHotValuesKeepTheirLaw: a field with 400 values, one of them hot,
// keeps its frequency law in the template and in the lookups (the hot
// value's share within 0.8x..1.25x of the truth, the same name hot in
// both, the lookups' names held by the documents), and no tenant's name
// is written.
func TestHotValuesKeepTheirLaw(t *testing.T) {
	res, z := hotCapture(t)
	w := res.Workload("hot")
	text := write(t, w)
	if regexp.MustCompile(`acme-\d{4}`).MatchString(text) {
		t.Fatalf("a tenant's name was written:\n%s", text)
	}
	want := z.cum[0]
	tmpl := w.Config.Collections[0].Template
	i := slices.IndexFunc(tmpl.Fields, func(f config.Field) bool { return f.Key == "tenant" })
	docs := draws(t, tmpl.Fields[i].Value, 50000)
	finds := draws(t, w.Config.Operations[0].Filter.Fields[0].Value, 50000)
	dTop, dShare := topShare(docs)
	fTop, fShare := topShare(finds)
	for _, x := range []struct {
		what  string
		share float64
	}{{"documents", dShare}, {"lookups", fShare}} {
		if x.share < 0.8*want || x.share > 1.25*want {
			t.Errorf("the hot tenant holds %.1f%% of the replay's %s, %.1f%% of the source's", x.share*100, x.what, want*100)
		}
	}
	if dTop != fTop {
		t.Errorf("the hot name of the documents (%s) is not the lookups' (%s)", dTop, fTop)
	}
	held := map[string]bool{}
	for _, d := range docs {
		held[d] = true
	}
	found := 0
	for _, f := range finds {
		if held[f] {
			found++
		}
	}
	if share := float64(found) / float64(len(finds)); share < 0.95 {
		t.Errorf("only %.1f%% of the lookups draw a name the documents hold", share*100)
	}
	if !strings.Contains(text, "frequency law over ranks") {
		t.Errorf("the file does not say how tenant was written:\n%s", text)
	}
}

// TestRankTailBlocks: the tail's ranks are cut into decimal blocks that
// cover [head, head+names) exactly once, each as wide as it counts.
func TestRankTailBlocks(t *testing.T) {
	for _, tt := range []struct{ head, names int }{{122, 31}, {0, 1}, {7, 993}, {1, 12345}, {999, 2}} {
		law := &rankLaw{typ: bson.TypeString, prefix: "o#-", head: make([]float64, tt.head), names: tt.names}
		law.width = len(fmt.Sprint(tt.head + tt.names - 1))
		seen := map[string]bool{}
		for _, x := range draws(t, law.tailGen(), 20*tt.names) {
			seen[x] = true
		}
		if len(seen) != tt.names {
			t.Errorf("head %d, %d names: the tail drew %d distinct names", tt.head, tt.names, len(seen))
		}
		for r := tt.head; r < tt.head+tt.names; r += max(1, tt.names/7) {
			if n := law.name(r).Scalar.(string); !seen[fmt.Sprintf("%q", n)] {
				t.Errorf("head %d, %d names: rank %d (%s) never drawn", tt.head, tt.names, r, n)
			}
		}
	}
}

// TestHotValueAmongTenThousand: 10,000 customers with six documents each
// (a sample of 1,000 sees most of them once), looked up 30,000 times, a
// third of the lookups by one customer: too many distinct values for the
// lookups to be counted one by one, so the law is read from the lookups'
// reservoir. The hot customer keeps its third of the lookups, its name is
// one the documents hold, and the tail holds about 10,000 names (Chao's
// estimate from the sample), so that a lookup finds as many documents.
func TestHotValueAmongTenThousand(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	name := func(i int) string { return fmt.Sprintf("cust-%05d", (i*7919+13)%100000) }
	c := NewCollection("shop", "orders")
	for i := range 1000 {
		d, _ := bson.Marshal(bson.D{{Key: "_id", Value: int32(i)}, {Key: "customer", Value: name(r.IntN(10000))}})
		c.AddSample(d, r)
	}
	c.Count = 60000
	res := &Result{Opts: Options{Now: time.Now}, Shapes: NewShapes(1), Collections: []*Collection{c}}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 30000 {
		who := name(r.IntN(10000))
		if i%3 == 0 {
			who = name(4242)
		}
		f, _ := bson.Marshal(bson.D{{Key: "customer", Value: who}})
		res.Shapes.Add(source.Op{DB: "shop", Coll: "orders", Kind: source.KindFind, Filter: f, Count: 1, TS: t0.Add(time.Duration(i) * time.Millisecond)})
	}
	res.Sources = []*source.Source{{Name: "test", Complete: true, From: t0, To: t0.Add(30 * time.Second), Executions: 30000}}
	w := res.Workload("customers")
	if text := write(t, w); strings.Contains(text, "cust-0") || strings.Contains(text, "cust-1") {
		t.Fatalf("a customer's name was written")
	}
	if !res.Shapes.Order[0].Holes["filter.customer"].overflow {
		t.Fatal("the lookups were counted one by one: the test does not test the reservoir")
	}
	tmpl := w.Config.Collections[0].Template
	i := slices.IndexFunc(tmpl.Fields, func(f config.Field) bool { return f.Key == "customer" })
	docs := draws(t, tmpl.Fields[i].Value, 60000)
	finds := draws(t, w.Config.Operations[0].Filter.Fields[0].Value, 30000)
	hot, share := topShare(finds)
	if share < 0.8/3 || share > 1.25/3 {
		t.Errorf("the hot customer has %.1f%% of the lookups, a third in the application", share*100)
	}
	held, names := 0, map[string]bool{}
	for _, d := range docs {
		names[d] = true
		if d == hot {
			held++
		}
	}
	if held == 0 {
		t.Errorf("no document holds the hot customer %s", hot)
	}
	if n := len(names); n < 5000 || n > 20000 {
		t.Errorf("the documents hold %d customers, the application 10,000", n)
	}
}

// TestHotValuesInAMatch: an aggregation's $match by the hot field draws
// the same names as the documents, with the lookups' weights.
func TestHotValuesInAMatch(t *testing.T) {
	res, z := hotCapture(t)
	r := rand.New(rand.NewPCG(5, 5))
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 2000 {
		p, _ := bson.Marshal(bson.D{{Key: "p", Value: bson.A{bson.D{{Key: "$match", Value: bson.D{{Key: "tenant", Value: tenantName(z.draw(r))}}}}, bson.D{{Key: "$count", Value: "n"}}}}})
		res.Shapes.Add(source.Op{DB: "shop", Coll: "accounts", Kind: source.KindAggregate, Pipeline: bson.Raw(p).Lookup("p").Value, Count: 1, TS: t0.Add(time.Duration(i) * time.Millisecond)})
	}
	w := res.Workload("match")
	write(t, w)
	for _, op := range w.Config.Operations {
		if op.Type != "aggregate" {
			continue
		}
		match := op.Pipeline.Items[0].Fields[0].Value.Fields[0].Value
		top, share := topShare(draws(t, match, 20000))
		if want := z.cum[0]; !strings.Contains(top, "acme-r") || share < 0.8*want || share > 1.25*want {
			t.Errorf("the $match's hot tenant %s has %.1f%% of the draws, %.1f%% in the application", top, share*100, want*100)
		}
		return
	}
	t.Fatal("no aggregation written")
}
