package capture

import (
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/capture/source"
	"github.com/mongoload/mongoload/internal/config"
)

// TestRangesKeepTheirWidths: ranges a day wide (three in four) or a week
// wide over a year of dates, and price ranges 50 wide, are written as
// ranges whose bounds go together: every replayed range is a day or a week
// wide (both drawn, in about the captured proportion), every price range
// 50 wide, each with the captured operators.
func TestRangesKeepTheirWidths(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	r := rand.New(rand.NewPCG(5, 6))
	var ops []source.Op
	for i := range 400 {
		lo := t0.Add(time.Duration(r.IntN(365*24)) * time.Hour)
		w := 24 * time.Hour
		if i%4 == 3 {
			w = 7 * 24 * time.Hour
		}
		ops = append(ops, find(bson.D{{Key: "created", Value: bson.D{{Key: "$gte", Value: lo}, {Key: "$lt", Value: lo.Add(w)}}}}, t0.Add(time.Duration(i)*time.Millisecond)))
		p := float64(r.IntN(900))
		ops = append(ops, find(bson.D{{Key: "total", Value: bson.D{{Key: "$gt", Value: p}, {Key: "$lte", Value: p + 50}}}}, t0.Add(time.Duration(i)*time.Millisecond)))
	}
	for _, o := range []Options{{}, {RedactNames: true}} { // redacted, the operators stay operators
		wl := captured(ops, o).Workload("ranges")
		if text := write(t, wl); !strings.Contains(text, "$gen: range") {
			t.Fatalf("no range written:\n%s", text)
		}
		for i, op := range wl.Config.Operations {
			f := op.Filter.Fields[0]
			widths := map[string]int{}
			for _, d := range draws(t, f.Value, 4000) {
				widths[rangeWidth(t, d)]++
			}
			switch wl.Kept[i].First.Filter.Index(0).Key() {
			case "created":
				day, week := widths["24h0m0s"], widths["168h0m0s"]
				if day+week != 4000 || day < 2700 || day > 3300 {
					t.Errorf("created (%+v): widths %v; want only a day (about 3,000) and a week", o, widths)
				}
			case "total":
				if widths["50"] != 4000 {
					t.Errorf("total (%+v): widths %v; want 50 every time", o, widths)
				}
			}
		}
	}
}

// rangeWidth reads a drawn range ("{"$gte": ..., "$lt": ...}" as the
// extended JSON draws gives) back as its width.
func rangeWidth(t *testing.T, s string) string {
	t.Helper()
	var d bson.Raw
	if err := bson.UnmarshalExtJSON([]byte(s), true, &d); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	els, _ := d.Elements()
	if len(els) != 2 {
		t.Fatalf("range %s has %d bounds", s, len(els))
	}
	lo, hi := els[0].Value(), els[1].Value()
	switch {
	case lo.Type == bson.TypeDateTime:
		if els[0].Key() != "$gte" || els[1].Key() != "$lt" {
			t.Errorf("operators of %s", s)
		}
		return hi.Time().Sub(lo.Time()).String()
	case els[0].Key() != "$gt" || els[1].Key() != "$lte":
		t.Errorf("operators of %s", s)
	}
	return fmt.Sprint(math.Round((hi.Double()-lo.Double())*1e6) / 1e6) // a double's sum rounds
}

// TestEqualityValuesGoTogether: lookups by tenant (400 values, a Zipf law)
// and status, where each tenant only ever asks for one status, are written
// as a choice of whole filters: every drawn filter is a combination the
// application ran (a tenant's rank with its own status), the hot
// combination keeps its share, and no tenant's name is written.
func TestEqualityValuesGoTogether(t *testing.T) {
	res, z := hotCapture(t)
	r := rand.New(rand.NewPCG(9, 9))
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 3000 {
		rk := z.draw(r)
		f, _ := bson.Marshal(bson.D{{Key: "tenant", Value: tenantName(rk)}, {Key: "status", Value: statuses[rk%4]}})
		res.Shapes.Add(source.Op{DB: "shop", Coll: "accounts", Kind: source.KindFind, Filter: f, Count: 1, TS: t0.Add(time.Duration(i) * time.Millisecond)})
	}
	w := res.Workload("tuples")
	text := write(t, w)
	if regexp.MustCompile(`acme-\d{4}`).MatchString(text) {
		t.Fatalf("a tenant's name was written:\n%s", text)
	}
	var filter config.Value
	for _, op := range w.Config.Operations {
		if strings.HasSuffix(op.Name, "by_tenant_status") {
			filter = op.Filter
		}
	}
	if filter.Kind != config.KindGen {
		t.Fatalf("the filter by tenant and status is not a choice of filters: %s", filter)
	}
	statusOf := map[string]map[string]bool{}
	drawn := draws(t, filter, 20000)
	for _, d := range drawn {
		var doc bson.Raw
		if err := bson.UnmarshalExtJSON([]byte(d), true, &doc); err != nil {
			t.Fatal(err)
		}
		tn, st := doc.Lookup("tenant").StringValue(), doc.Lookup("status").StringValue()
		if statusOf[tn] == nil {
			statusOf[tn] = map[string]bool{}
		}
		statusOf[tn][st] = true
	}
	mixed := 0
	for tn, sts := range statusOf {
		if len(sts) > 1 && !strings.Contains(tn, "#") {
			mixed++
		}
	}
	if mixed > len(statusOf)/10 { // the tail's tenants draw from a pattern: some share a name by chance
		t.Errorf("%d of %d tenants drawn with more than one status: combinations the application never ran", mixed, len(statusOf))
	}
	top, share := topShare(drawn)
	if want := z.cum[0]; share < 0.8*want || share > 1.25*want {
		t.Errorf("the hot combination %s holds %.1f%% of the filters, %.1f%% of the application's", top, share*100, want*100)
	}
}
