package ab

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/replay"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/run"
	"github.com/mongoload/mongoload/internal/trace"
	"github.com/mongoload/mongoload/internal/workload"
)

// trafficverify.go: pt-upgrade's comparison of results, on the trace's
// own operations: the first perShape of each shape, in the trace's order,
// each sent to A and then to B, one at a time, their results compared.

// verifyTraffic sends up to perShape operations of each shape of the trace
// to A then B and compares what each returned.
func verifyTraffic(ctx context.Context, a, b *run.Session, t *replay.Trace, perShape int) ([]verified, int, error) {
	out := make([]verified, len(a.Plan().Ops))
	if perShape == 0 {
		return out, 0, nil
	}
	ea, err := a.Client().Executors(a.Plan())
	if err != nil {
		return nil, 0, err
	}
	eb, err := b.Client().Executors(b.Plan())
	if err != nil {
		return nil, 0, err
	}
	total, left := 0, len(out)
	var stop error
	err = t.Each(func(_ trace.Entry, cmd bson.Raw, sh *replay.Shape) bool {
		i := sh.Index
		v := &out[i]
		if v.n >= perShape {
			return true
		}
		if ctx.Err() != nil {
			stop = fail(run.Interrupted, fmt.Errorf("interrupted while verifying results"))
			return false
		}
		r := &workload.Request{Command: cmd}
		oa, errA := outcome(ctx, ea[i], r)
		ob, errB := outcome(ctx, eb[i], r)
		if stop = answering(ctx, a, errA, "A"); stop != nil {
			return false
		}
		if stop = answering(ctx, b, errB, "B"); stop != nil {
			return false
		}
		v.n++
		total++
		op := a.Plan().Ops[i]
		v.countEmpty(op, oa, errA, ob, errB)
		diff, countOnly := compareReplayed(cmd, oa, errA, ob, errB)
		v.countOnly = v.countOnly || countOnly
		if diff != nil {
			v.diffs++
			if len(v.first) < maxDiffs {
				diff.Seq = total
				v.first = append(v.first, *diff)
			}
		}
		if v.n == perShape {
			left--
		}
		return left > 0
	})
	if stop != nil {
		return out, total, stop
	}
	return out, total, err
}

// compareReplayed compares one replayed command's outcome on both sides,
// as compareOutcomes does a workload's: documents byte for byte in order
// when the command sorts, as a set when it does not, only their number
// when a limit without a sort cut them; counts for the rest; an error on
// one side only (or of another class).
func compareReplayed(cmd bson.Raw, a mongodb.Outcome, errA error, b mongodb.Outcome, errB error) (*results.ABDiff, bool) {
	name := commandName(cmd)
	filter := replayedFilter(cmd)
	d := &results.ABDiff{Filter: replayedText(cmd)}
	switch {
	case errA != nil || errB != nil:
		if mongodb.Classify(errA) == mongodb.Classify(errB) {
			return nil, false
		}
		d.A, d.B, d.ID = errText(errA), errText(errB), idOf(filter)
		return d, false
	case name != "find" && name != "aggregate" && name != "distinct":
		if a.Counts == b.Counts {
			return nil, false
		}
		d.A, d.B, d.ID = countsText(a.Counts), countsText(b.Counts), idOf(filter)
		return d, false
	}
	sorted := replayedSorts(cmd)
	if replayedLimited(cmd) && !sorted && !idPinned(filter) {
		if len(a.Docs) == len(b.Docs) {
			return nil, true
		}
		d.A, d.B = docsText(len(a.Docs), ""), docsText(len(b.Docs), "")
		return d, true
	}
	da, db := a.Docs, b.Docs
	if !sorted {
		da, db = sortedDocs(da), sortedDocs(db)
	}
	ga, gb := digest(da), digest(db)
	if ga == gb {
		return nil, false
	}
	d.A, d.B, d.ID = docsText(len(da), ga), docsText(len(db), gb), firstDiff(da, db, sorted)
	return d, false
}

// replayedFilter is the command's filter (a find's, a count's or
// distinct's query, an update's or delete's first statement's, a
// findAndModify's query, an aggregate's first $match).
func replayedFilter(cmd bson.Raw) bson.Raw {
	for _, path := range [][]string{{"filter"}, {"query"}, {"updates", "0", "q"}, {"deletes", "0", "q"}, {"pipeline", "0", "$match"}} {
		if f, ok := cmd.Lookup(path...).DocumentOK(); ok {
			return f
		}
	}
	return nil
}

// replayedSorts reports whether the command defines its documents' order.
func replayedSorts(cmd bson.Raw) bool {
	if s, ok := cmd.Lookup("sort").DocumentOK(); ok && len(s) > 5 {
		return true
	}
	return pipelineHas(cmd, "$sort")
}

// replayedLimited reports whether a limit may cut the command's result.
func replayedLimited(cmd bson.Raw) bool {
	if n, ok := cmd.Lookup("limit").AsInt64OK(); ok && n != 0 {
		return true
	}
	if one, ok := cmd.Lookup("singleBatch").BooleanOK(); ok && one {
		return true
	}
	return pipelineHas(cmd, "$limit") || pipelineHas(cmd, "$sample")
}

func pipelineHas(cmd bson.Raw, stage string) bool {
	arr, _ := cmd.Lookup("pipeline").ArrayOK()
	vals, _ := arr.Values()
	for _, v := range vals {
		if st, ok := v.DocumentOK(); ok && st.Lookup(stage).Type != 0 {
			return true
		}
	}
	return false
}

// replayedText is what the command sent, for a difference: its filter, or
// an aggregate's pipeline, as relaxed extended JSON cut at 300 bytes.
func replayedText(cmd bson.Raw) string {
	v := bson.RawValue{Type: bson.TypeEmbeddedDocument, Value: replayedFilter(cmd)}
	if commandName(cmd) == "aggregate" {
		v = cmd.Lookup("pipeline")
	}
	if v.Value == nil {
		return "{}"
	}
	return cut(valueText(v), 300)
}
