package capture

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/capture/source"
	"github.com/mongoload/mongoload/internal/config"
)

var statuses = []string{"new", "paid", "shipped", "cancelled"}

// orders is a sampled shop.orders: unique emails and skus, four statuses.
func orders(n int) *Collection {
	c := NewCollection("shop", "orders")
	r := rand.New(rand.NewPCG(1, 2))
	for i := range n {
		d, _ := bson.Marshal(bson.D{{Key: "_id", Value: bson.NewObjectID()}, {Key: "customer_id", Value: int32(1 + r.IntN(2000))},
			{Key: "email", Value: fmt.Sprintf("c%d.%d@shop.example", i, r.IntN(1e6))}, {Key: "status", Value: statuses[r.IntN(4)]},
			{Key: "sku", Value: fmt.Sprintf("SKU-%06d", i)}, {Key: "total", Value: float64(r.IntN(100000)) / 100}})
		c.AddSample(d, r)
	}
	c.Count = int64(n)
	return c
}

// captured builds a capture of ops on shop.orders with a sampled collection.
func captured(ops []source.Op, o Options) *Result {
	o.Now = func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }
	res := &Result{Opts: o, Shapes: NewShapes(1), Collections: []*Collection{orders(500)}}
	p := &source.Profiled{Emit: res.Shapes.Add}
	for _, op := range ops {
		p.Keep(op)
	}
	src := p.Source("test", "test")
	src.Complete = true
	res.Sources = []*source.Source{src}
	return res
}

func find(filter bson.D, ts time.Time) source.Op {
	f, _ := bson.Marshal(filter)
	return source.Op{DB: "shop", Coll: "orders", Kind: source.KindFind, Filter: f, Count: 1, Returned: 1, TS: ts}
}

func write(t *testing.T, w *Workload) string {
	t.Helper()
	var buf bytes.Buffer
	if err := w.WriteYAML(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestWorkloadPrivacyAndKeys: lookups by email (unique) and by status
// become a keyed field and a weighted enum; no email, no sku leaves the
// source; the file compiles; the rate is the operations over the window.
func TestWorkloadPrivacyAndKeys(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var ops []source.Op
	for i := range 300 {
		ts := t0.Add(time.Duration(i) * 10 * time.Millisecond)
		if i%3 == 0 {
			ops = append(ops, find(bson.D{{Key: "sku", Value: fmt.Sprintf("SKU-%06d", i)}}, ts))
		} else {
			ops = append(ops, find(bson.D{{Key: "status", Value: statuses[i%4]}, {Key: "email", Value: fmt.Sprintf("c%d@x.example", i)}}, ts))
		}
	}
	res := captured(ops, Options{})
	text := write(t, res.Workload("shop"))
	for _, leak := range []string{"@shop.example", "@x.example", "SKU-000"} {
		if strings.Contains(text, leak) {
			t.Errorf("the workload carries %q, a high-cardinality literal:\n%s", leak, text)
		}
	}
	for _, want := range []string{
		"sku: {$gen: key, prefix: SKU-, zeroPadding: 6}",           // the unique field looked up: keys, in the template
		"filter: {sku: {$gen: key, prefix: SKU-, zeroPadding: 6}}", // and in the lookup
		"status: {$gen: enum, values: [",
		"email: {$gen: email}",
		"rate: 100.0", // 299 intervals of 10 ms after the first
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the workload lacks %q:\n%s", want, text)
		}
	}
	kept := write(t, captured(ops, Options{KeepValues: true}).Workload("shop"))
	if !strings.Contains(kept, "@x.example") {
		t.Error("--keep-values did not keep the emails looked up")
	}
}

// TestWorkloadMinShareAndRedact: a shape under --min-share is folded and
// said so; --redact-names leaves no name and hashes stably.
func TestWorkloadMinShareAndRedact(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var ops []source.Op
	for i := range 99 {
		ops = append(ops, find(bson.D{{Key: "customer_id", Value: int32(i)}}, t0.Add(time.Duration(i)*time.Second)))
	}
	ops = append(ops, find(bson.D{{Key: "total", Value: bson.D{{Key: "$gt", Value: 5.5}}}}, t0))
	res := captured(ops, Options{MinShare: 0.02, RedactNames: true})
	w := res.Workload("shop")
	if len(w.Kept) != 1 || len(w.Folded) != 1 {
		t.Fatalf("kept %d, folded %d; want 1 and 1", len(w.Kept), len(w.Folded))
	}
	text := write(t, w)
	if !strings.Contains(text, "folded: 1 shapes under --min-share 0.02, 1.00% of executions") {
		t.Errorf("the fold is not reported:\n%s", text)
	}
	for _, name := range []string{"orders", "customer_id", "email:", "status", "shop."} {
		if strings.Contains(strings.SplitN(text, "\nname:", 2)[1], name) {
			t.Errorf("--redact-names left %q in the workload:\n%s", name, text)
		}
	}
	if h := hashName("c", "orders"); !strings.Contains(text, h) || h != hashName("c", "orders") {
		t.Errorf("collection hash %s missing or unstable", h)
	}
}

// TestGeneratorsFromValues: table of value models.
func TestGeneratorsFromValues(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	val := func(x any) bson.RawValue {
		typ, data, _ := bson.MarshalValue(x)
		return bson.RawValue{Type: typ, Value: data}
	}
	tests := []struct {
		name string
		vals func(i int) any
		n    int
		want string
	}{
		{"one value: a literal", func(int) any { return "EUR" }, 50, "EUR"},
		{"few values: a weighted enum", func(i int) any { return []string{"a", "a", "a", "b"}[i%4] }, 400, "{$gen: enum, values: [a, b], weights: [300, 100]}"},
		{"uniform ints: their range", func(i int) any { return int32(i % 1000) }, 1000, "{$gen: int, min: 0, max: 999}"},
		{"skewed ints: a histogram", func(i int) any {
			if i%10 < 9 {
				return int32(i % 100)
			}
			return int32(i % 800)
		}, 2000, "{$gen: enum, values: [{$gen: int, min: 0, max: 99}"},
		{"ids of one shape: a pattern", func(i int) any { return fmt.Sprintf("AB-%04d-X", i) }, 100, "{$gen: pattern, pattern: AB-####-X}"},
		{"hex strings", func(i int) any { return fmt.Sprintf("%x", 1000000+i*7919) }, 100, "{$gen: string, min: 5, max: 6, charset: hex}"},
		{"doubles: range and decimals", func(i int) any { return float64(i) / 100 }, 500, "{$gen: double, min: 0.0, max: 4.99, decimals: 2}"},
		{"two types: both, weighted", func(i int) any {
			if i%10 < 3 {
				return fmt.Sprintf("n/a-%d", i)
			}
			return int32(i)
		}, 1000, "weights: [700, 300]"},
		{"nullable", func(i int) any {
			if i%4 == 0 {
				return bson.Null{}
			}
			return int64(i) * 1e12
		}, 400, "nullProbability: 0.25"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newField()
			for i := range tc.n {
				f.Observe(val(tc.vals(i)), r)
			}
			var buf bytes.Buffer
			w := &Workload{Config: config.Default()}
			w.Config.Collections = []config.Collection{{Database: "d", Name: "c", Template: config.Value{Kind: config.KindDoc, Fields: []config.Field{{Key: "x", Value: f.Generator(genOptions{})}}}}}
			w.Config.Operations = []config.Operation{{Name: "i", Type: "insertOne", Weight: 1}}
			if err := w.WriteYAML(&buf); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(buf.String(), tc.want) {
				t.Errorf("got\n%s\nwant it to hold %s", buf.String(), tc.want)
			}
		})
	}
}

// TestWorkloadHotLookups: when a tenth of the looked-up values take most
// lookups, the replayed lookups follow a hotspot law of that share.
func TestWorkloadHotLookups(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var ops []source.Op
	for i := range 1000 {
		n := 10 + (i/5)%90 // 90 values taking a fifth of the lookups...
		if i%5 != 0 {
			n = i % 10 // ...and 8 (1-4, 6-9) taking the rest
		}
		ops = append(ops, find(bson.D{{Key: "sku", Value: fmt.Sprintf("SKU-%06d", n)}}, t0.Add(time.Duration(i)*time.Millisecond)))
	}
	text := write(t, captured(ops, Options{}).Workload("shop"))
	want := "filter: {sku: {$gen: key, prefix: SKU-, zeroPadding: 6, distribution: hotspot, hotDataFraction: 0.02, hotOpnFraction: 0.806}}" // 8 hot values and 2 others: 806 of 1000
	if !strings.Contains(text, want) {
		t.Errorf("want %s in\n%s", want, text)
	}
}
