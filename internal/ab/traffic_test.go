package ab

import (
	"errors"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
)

func raw(t *testing.T, d bson.D) bson.Raw {
	t.Helper()
	b, err := bson.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestKeepSendsReadsOnlyUnlessAsked: reads are sent; writes only with
// --writes aborted; aggregations that write and DDL never; each reason
// names the command's kind.
func TestKeepSendsReadsOnlyUnlessAsked(t *testing.T) {
	for _, c := range []struct {
		cmd             bson.D
		notSent, abortd string // the reason's start, "" when sent
	}{
		{bson.D{{Key: "find", Value: "o"}}, "", ""},
		{bson.D{{Key: "aggregate", Value: "o"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$match", Value: bson.D{}}}}}}, "", ""},
		{bson.D{{Key: "count", Value: "o"}}, "", ""},
		{bson.D{{Key: "distinct", Value: "o"}}, "", ""},
		{bson.D{{Key: "update", Value: "o"}}, "update: writes are not sent", ""},
		{bson.D{{Key: "insert", Value: "o"}}, "insert: writes are not sent", ""},
		{bson.D{{Key: "delete", Value: "o"}}, "delete: writes are not sent", ""},
		{bson.D{{Key: "findAndModify", Value: "o"}}, "findAndModify: writes are not sent", ""},
		// an aggregation that writes is never sent, not even aborted
		{bson.D{{Key: "aggregate", Value: "o"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$out", Value: "x"}}}}}, "aggregate: aggregations that write", "aggregate: aggregations that write"},
		{bson.D{{Key: "aggregate", Value: "o"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$merge", Value: "x"}}}}}, "aggregate: aggregations that write", "aggregate: aggregations that write"},
		// DDL and admin never
		{bson.D{{Key: "createIndexes", Value: "o"}}, "createIndexes: commands that neither", "createIndexes: commands that neither"},
		{bson.D{{Key: "drop", Value: "o"}}, "drop: commands that neither", "drop: commands that neither"},
		{bson.D{{Key: "renameCollection", Value: "a.o"}}, "renameCollection: commands that neither", "renameCollection: commands that neither"},
	} {
		cmd := raw(t, c.cmd)
		for _, m := range []struct{ writes, want string }{{WritesNotSent, c.notSent}, {WritesAborted, c.abortd}} {
			got := keepFor(m.writes)(cmd)
			if (m.want == "") != (got == "") || !strings.HasPrefix(got, m.want) {
				t.Errorf("%v with writes %s: %q, want %q", c.cmd, m.writes, got, m.want)
			}
		}
	}
}

// TestCompareReplayed: a replayed read's results compared as pt-upgrade
// compares them.
func TestCompareReplayed(t *testing.T) {
	d1, d2 := raw(t, bson.D{{Key: "_id", Value: 1}}), raw(t, bson.D{{Key: "_id", Value: 2}})
	find := raw(t, bson.D{{Key: "find", Value: "o"}, {Key: "filter", Value: bson.D{{Key: "c", Value: 1}}}})
	sorted := raw(t, bson.D{{Key: "find", Value: "o"}, {Key: "filter", Value: bson.D{}}, {Key: "sort", Value: bson.D{{Key: "x", Value: 1}}}})
	limited := raw(t, bson.D{{Key: "find", Value: "o"}, {Key: "filter", Value: bson.D{}}, {Key: "limit", Value: 1}})
	count := raw(t, bson.D{{Key: "count", Value: "o"}, {Key: "query", Value: bson.D{{Key: "_id", Value: 5}}}})
	docs := func(d ...bson.Raw) mongodb.Outcome { return mongodb.Outcome{Docs: d} }
	dup := errors.New("E11000 duplicate key")
	for _, c := range []struct {
		name      string
		cmd       bson.Raw
		a, b      mongodb.Outcome
		errA      error
		differ    bool
		countOnly bool
	}{
		{"no sort: a set", find, docs(d1, d2), docs(d2, d1), nil, false, false},
		{"sorted: in order", sorted, docs(d1, d2), docs(d2, d1), nil, true, false},
		{"a document missing", find, docs(d1, d2), docs(d1), nil, true, false},
		{"a limit without a sort: the count", limited, docs(d1), docs(d2), nil, false, true},
		{"a count", count, mongodb.Outcome{Counts: metrics.Docs{Matched: 1}}, mongodb.Outcome{Counts: metrics.Docs{Matched: 2}}, nil, true, false},
		{"an error on one side", find, docs(), docs(), dup, true, false},
	} {
		d, countOnly := compareReplayed(c.cmd, c.a, c.errA, c.b, nil)
		if (d != nil) != c.differ || countOnly != c.countOnly {
			t.Errorf("%s: diff %+v, countOnly %v; want differ %v, countOnly %v", c.name, d, countOnly, c.differ, c.countOnly)
		}
	}
}

// TestOneRoundTail: a side's aggregate tail made by one round is said;
// tails alike, or one round only, are not.
func TestOneRoundTail(t *testing.T) {
	r := func(p99s ...float64) []results.ABRoundTail {
		var out []results.ABRoundTail
		for i, p := range p99s {
			out = append(out, results.ABRoundTail{Round: i + 1, Side: "B", Count: 100, P99: p})
		}
		return out
	}
	for _, c := range []struct {
		name      string
		aggregate float64
		rounds    []results.ABRoundTail
		says      string
	}{
		{"one round's hiccup", 150, r(7, 170, 6, 7.4), "round 2's alone: 170 ms there, 23x every other round's (at most 7.4 ms)"},
		{"tails alike", 8, r(7, 8, 6, 7.4), ""},
		{"twice, not several times", 14, r(7, 14, 6, 7.4), ""},
		{"one round only", 170, r(170), ""},
		{"the aggregate not made by it", 7.4, r(7, 170, 6, 7.4), ""},
	} {
		got := oneRoundTail("B", c.aggregate, c.rounds)
		if (c.says == "") != (got == "") || !strings.Contains(got, c.says) {
			t.Errorf("%s: %q, want %q", c.name, got, c.says)
		}
	}
}
