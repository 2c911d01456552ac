package ab

import (
	"errors"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/workload"
)

func doc(t *testing.T, d bson.D) bson.Raw {
	t.Helper()
	b, err := bson.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCompareOutcomes: what counts as the same result on both sides.
func TestCompareOutcomes(t *testing.T) {
	d := func(id, qty int) bson.Raw { return doc(t, bson.D{{Key: "_id", Value: id}, {Key: "qty", Value: qty}}) }
	byOrg := doc(t, bson.D{{Key: "org", Value: "o1"}})
	byID := doc(t, bson.D{{Key: "_id", Value: 7}})
	sortQty := doc(t, bson.D{{Key: "qty", Value: 1}})
	find := &workload.Op{Kind: workload.Find}
	limited := &workload.Op{Kind: workload.Find, Limit: 2}
	findOne := &workload.Op{Kind: workload.FindOne}
	update := &workload.Op{Kind: workload.UpdateOne}
	docs := func(ds ...bson.Raw) mongodb.Outcome { return mongodb.Outcome{Docs: ds} }
	for _, c := range []struct {
		name       string
		op         *workload.Op
		req        workload.Request
		a, b       mongodb.Outcome
		errA, errB error
		differ     bool
		countOnly  bool
		id         string
	}{
		// No sort: the same documents in another order are the same result.
		{name: "set, other order", op: find, req: workload.Request{Filter: byOrg}, a: docs(d(1, 5), d(2, 6)), b: docs(d(2, 6), d(1, 5))},
		// One field of one document differs: its _id is named.
		{name: "set, one changed", op: find, req: workload.Request{Filter: byOrg}, a: docs(d(1, 5), d(2, 6)), b: docs(d(2, -1), d(1, 5)), differ: true, id: "2"},
		// With a sort the order is the result: another order differs.
		{name: "sorted, other order", op: find, req: workload.Request{Filter: byOrg, Sort: sortQty}, a: docs(d(1, 5), d(2, 6)), b: docs(d(2, 6), d(1, 5)), differ: true, id: "1"},
		// A limit without a sort that cut the result: any documents will
		// do, only the count is compared (and marked).
		{name: "limit, no sort, cut", op: limited, req: workload.Request{Filter: byOrg}, a: docs(d(1, 5), d(2, 6)), b: docs(d(3, 7), d(4, 8)), countOnly: true},
		{name: "limit, no sort, counts differ", op: limited, req: workload.Request{Filter: byOrg}, a: docs(d(1, 5), d(2, 6)), b: docs(d(3, 7)), differ: true, countOnly: true},
		// Under the limit, the whole matching set came back: compared.
		{name: "limit not reached", op: limited, req: workload.Request{Filter: byOrg}, a: docs(d(1, 5)), b: docs(d(3, 7)), differ: true, id: "1"},
		// findOne by _id: one document at most, so its content is defined.
		{name: "findOne by _id", op: findOne, req: workload.Request{Filter: byID}, a: docs(d(7, 5)), b: docs(d(7, -1)), differ: true, id: "7"},
		{name: "findOne by another field", op: findOne, req: workload.Request{Filter: byOrg}, a: docs(d(7, 5)), b: docs(d(8, 5)), countOnly: true},
		// A write compares what it did.
		{name: "update, same", op: update, req: workload.Request{Filter: byID}, a: mongodb.Outcome{Counts: metrics.Docs{Matched: 1, Modified: 1}}, b: mongodb.Outcome{Counts: metrics.Docs{Matched: 1, Modified: 1}}},
		{name: "update, missed on B", op: update, req: workload.Request{Filter: byID}, a: mongodb.Outcome{Counts: metrics.Docs{Matched: 1, Modified: 1}}, b: mongodb.Outcome{}, differ: true, id: "7"},
		// An error on one side only differs; the same class on both does not.
		{name: "error on B", op: findOne, req: workload.Request{Filter: byID}, a: docs(d(7, 5)), errB: errors.New("boom"), differ: true, id: "7"},
		{name: "error on both", op: findOne, req: workload.Request{Filter: byID}, errA: errors.New("boom"), errB: errors.New("boom")},
	} {
		diff, countOnly := compareOutcomes(c.op, &c.req, c.a, c.errA, c.b, c.errB)
		if (diff != nil) != c.differ || countOnly != c.countOnly {
			t.Errorf("%s: diff %+v countOnly %v, want differ %v countOnly %v", c.name, diff, countOnly, c.differ, c.countOnly)
			continue
		}
		if diff != nil && diff.ID != c.id {
			t.Errorf("%s: _id %q, want %q (%+v)", c.name, diff.ID, c.id, diff)
		}
		if diff != nil && diff.Filter == "" {
			t.Errorf("%s: the difference does not name the filter", c.name)
		}
	}
}

// TestABOrder: rounds alternate which side goes first.
func TestABOrder(t *testing.T) {
	got := ABOrder(3)
	want := []string{"A", "B", "B", "A", "A", "B"}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("ABOrder(3) = %v, want %v", got, want)
		}
	}
}
