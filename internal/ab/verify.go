package ab

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/generate"
	"github.com/mongoload/mongoload/internal/insights"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/run"
	"github.com/mongoload/mongoload/internal/workload"
)

// abverify.go: before the timed rounds, a sample of the operation sequence
// runs one operation at a time on both sides, in the same order (writes
// too, so the sides stay identical), and their results are compared
// (pt-upgrade's idea).

// verified is what verification found for one shape.
type verified struct {
	n, diffs  int
	countOnly bool
	first     []results.ABDiff // up to maxDiffs
}

const maxDiffs = 5

// verifyTimeout bounds one verified operation on one side.
const verifyTimeout = 30 * time.Second

// verify draws the operation sequence (seeded as the runs are) from each
// side's plan and runs each operation on A, then on B, until every shape
// ran perShape times (or the draws run out: a shape the mix rarely picks).
func verify(ctx context.Context, a, b *run.Session, perShape int, seed uint64) ([]verified, int, error) {
	ea, err := a.Client().Executors(a.Plan())
	if err != nil {
		return nil, 0, err
	}
	eb, err := b.Client().Executors(b.Plan())
	if err != nil {
		return nil, 0, err
	}
	out := make([]verified, len(a.Plan().Ops))
	sa, sb := generate.NewState(seed, 1<<41), generate.NewState(seed, 1<<41)
	var ra, rb workload.Request
	defer ra.Release()
	defer rb.Release()
	total, draws := 0, perShape*len(a.Plan().Ops)*20
	for d := 0; d < draws && !allVerified(out, perShape, a.Plan()); d++ {
		i := a.Plan().Mix.Pick(sa.Rand)
		b.Plan().Mix.Pick(sb.Rand)
		ra.Build(a.Plan().Ops[i], sa)
		rb.Build(b.Plan().Ops[i], sb)
		if out[i].n >= perShape {
			continue // drawn all the same, so both sides' sequences stay one
		}
		if ctx.Err() != nil {
			return out, total, fail(run.Interrupted, fmt.Errorf("interrupted while verifying results"))
		}
		oa, errA := outcome(ctx, ea[i], &ra)
		ob, errB := outcome(ctx, eb[i], &rb)
		v := &out[i]
		v.n++
		total++
		diff, countOnly := compareOutcomes(a.Plan().Ops[i], &ra, oa, errA, ob, errB)
		v.countOnly = v.countOnly || countOnly
		if diff != nil {
			v.diffs++
			if len(v.first) < maxDiffs {
				diff.Seq = total
				v.first = append(v.first, *diff)
			}
		}
	}
	return out, total, nil
}

func allVerified(v []verified, perShape int, plan *workload.Plan) bool {
	for i := range v {
		if v[i].n < perShape && plan.Ops[i].Weight > 0 {
			return false
		}
	}
	return true
}

func outcome(ctx context.Context, e *mongodb.Executor, r *workload.Request) (mongodb.Outcome, error) {
	ctx, cancel := context.WithTimeout(ctx, verifyTimeout)
	defer cancel()
	return e.Outcome(ctx, r)
}

// samples draws the operation sequence (without running it) until every
// shape has a request to explain, and copies the first of each.
func samples(plan *workload.Plan, seed uint64) []*insights.Sample {
	out := make([]*insights.Sample, len(plan.Ops))
	st := generate.NewState(seed, 1<<41)
	var r workload.Request
	defer r.Release()
	for d, left := 0, len(plan.Ops); d < 1000*len(plan.Ops) && left > 0; d++ {
		i := plan.Mix.Pick(st.Rand)
		if out[i] != nil {
			continue
		}
		r.Build(plan.Ops[i], st)
		out[i] = sampleOf(plan.Ops[i], &r)
		left--
		r.Release()
	}
	return out
}

// sampleOf copies the request (insights.SampleOf), to explain the shape on
// both sides; nil for what explain cannot show.
func sampleOf(op *workload.Op, r *workload.Request) *insights.Sample {
	if op.Kind == workload.Transaction || op.Kind == workload.InsertOne || op.Kind == workload.InsertMany {
		// no plan: insights.Explain says why, and sends nothing
		return &insights.Sample{Type: op.Type, Kind: op.Kind}
	}
	if op.Collection == nil {
		return nil
	}
	smp := insights.SampleOf(op, r)
	s := &smp
	if s.Filter == nil {
		s.Filter = bson.Raw{5, 0, 0, 0, 0}
	}
	return s
}

// compareOutcomes compares one operation's outcome on both sides: nil when
// they agree. countOnly is set when the result set is not defined (a limit
// without a sort that the limit cut) and only the counts were compared.
func compareOutcomes(op *workload.Op, r *workload.Request, a mongodb.Outcome, errA error, b mongodb.Outcome, errB error) (diff *results.ABDiff, countOnly bool) {
	d := &results.ABDiff{Filter: filterText(op, r)}
	switch {
	case errA != nil || errB != nil:
		ca, cb := mongodb.Classify(errA), mongodb.Classify(errB)
		if ca == cb {
			return nil, false
		}
		d.A, d.B = errText(errA), errText(errB)
		d.ID = idOf(r.Filter)
		return d, false
	case !returnsDocs(op):
		if a.Counts == b.Counts {
			return nil, false
		}
		d.A, d.B, d.ID = countsText(a.Counts), countsText(b.Counts), idOf(r.Filter)
		return d, false
	}
	limit := limitOf(op, r)
	sorted := r.Sort != nil || hasStage(op, r, "$sort")
	if limit > 0 && !sorted && !idPinned(r.Filter) && (len(a.Docs) >= limit || len(b.Docs) >= limit) {
		if len(a.Docs) == len(b.Docs) {
			return nil, true
		}
		d.A, d.B = docsText(len(a.Docs), ""), docsText(len(b.Docs), "")
		return d, true
	}
	da, db := a.Docs, b.Docs
	if !sorted { // no order is defined: compare as sets
		da, db = sortedDocs(da), sortedDocs(db)
	}
	ga, gb := digest(da), digest(db)
	if ga == gb {
		return nil, false
	}
	d.A, d.B, d.ID = docsText(len(da), ga), docsText(len(db), gb), firstDiff(da, db, sorted)
	return d, false
}

// returnsDocs: the operations whose result is the documents they return.
func returnsDocs(op *workload.Op) bool {
	switch op.Kind {
	case workload.Find, workload.FindOne, workload.Aggregate, workload.FindOneAndUpdate:
		return true
	}
	return false
}

// limitOf is the most documents the operation may return (0: no limit).
func limitOf(op *workload.Op, r *workload.Request) int {
	switch {
	case op.Kind == workload.FindOne || op.Kind == workload.FindOneAndUpdate:
		return 1
	case op.LimitGen != nil:
		return int(r.Limit)
	case op.Kind == workload.Find:
		return int(op.Limit)
	case hasStage(op, r, "$limit") || hasStage(op, r, "$sample"):
		return 1 // any count: the cut is not defined without a sort
	}
	return 0
}

// hasStage reports whether an aggregate's pipeline has a stage named name.
func hasStage(op *workload.Op, r *workload.Request, name string) bool {
	if op.Kind != workload.Aggregate {
		return false
	}
	vals, _ := bson.Raw(r.Pipeline).Values()
	for _, v := range vals {
		if d, ok := v.DocumentOK(); ok {
			if _, err := d.LookupErr(name); err == nil {
				return true
			}
		}
	}
	return false
}

// idPinned reports whether the filter names one _id (a value or $eq): at
// most one document matches, so a limit cannot make the result undefined.
func idPinned(filter []byte) bool {
	v, err := bson.Raw(filter).LookupErr("_id")
	if err != nil {
		return false
	}
	d, ok := v.DocumentOK()
	if !ok {
		return true
	}
	elems, err := d.Elements()
	if err != nil || len(elems) == 0 {
		return true
	}
	if elems[0].Key()[0] != '$' {
		return true // an embedded document as the _id itself
	}
	return len(elems) == 1 && elems[0].Key() == "$eq"
}

func sortedDocs(docs []bson.Raw) []bson.Raw {
	out := slices.Clone(docs)
	slices.SortFunc(out, func(x, y bson.Raw) int { return bytes.Compare(x, y) })
	return out
}

// digest hashes the documents in the order given.
func digest(docs []bson.Raw) string {
	h := sha256.New()
	for _, d := range docs {
		h.Write(d)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// firstDiff is the _id of the first document one side returned and the
// other did not (byte for byte), as extended JSON.
func firstDiff(a, b []bson.Raw, ordered bool) string {
	if ordered {
		for i := range max(len(a), len(b)) {
			switch {
			case i >= len(a):
				return idText(b[i])
			case i >= len(b) || !bytes.Equal(a[i], b[i]):
				return idText(a[i])
			}
		}
		return ""
	}
	inB := map[string]bool{}
	for _, d := range b {
		inB[string(d)] = true
	}
	for _, d := range a {
		if !inB[string(d)] {
			return idText(d)
		}
	}
	inA := map[string]bool{}
	for _, d := range a {
		inA[string(d)] = true
	}
	for _, d := range b {
		if !inA[string(d)] {
			return idText(d)
		}
	}
	return ""
}

// idText is a document's _id as relaxed extended JSON ({"_id":0} -> 0).
func idText(doc bson.Raw) string {
	v, err := doc.LookupErr("_id")
	if err != nil {
		return "(no _id)"
	}
	return valueText(v)
}

// idOf is the _id a filter names, or "" when it names none.
func idOf(filter []byte) string {
	v, err := bson.Raw(filter).LookupErr("_id")
	if err != nil {
		return ""
	}
	return valueText(v)
}

func valueText(v bson.RawValue) string {
	b, err := bson.MarshalExtJSON(bson.D{{Key: "v", Value: v}}, false, false)
	if err != nil || len(b) < 6 {
		return v.String()
	}
	return string(b[5 : len(b)-1])
}

// filterText is what the operation sent, as relaxed extended JSON, cut at 300 bytes.
func filterText(op *workload.Op, r *workload.Request) string {
	raw := r.Filter
	if op.Kind == workload.Aggregate {
		s := bson.RawArray(r.Pipeline).String()
		return cut(s, 300)
	}
	if raw == nil {
		return "{}"
	}
	b, err := bson.MarshalExtJSON(bson.Raw(raw), false, false)
	if err != nil {
		return "<invalid>"
	}
	return cut(string(b), 300)
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

func errText(err error) string {
	if err == nil {
		return "succeeded"
	}
	return "failed: " + mongodb.Classify(err)
}

func docsText(n int, digest string) string {
	s := fmt.Sprintf("%d documents", n)
	if n == 1 {
		s = "1 document"
	}
	if digest != "" && n > 0 {
		s += " (digest " + digest + ")"
	}
	return s
}

// countsText says what a write did: "matched 1, modified 1".
func countsText(d metrics.Docs) string {
	var parts []string
	for _, c := range []struct {
		n    int64
		what string
	}{{d.Matched, "matched"}, {d.Modified, "modified"}, {d.Upserted, "upserted"}, {d.Deleted, "deleted"}, {d.Inserted, "inserted"}, {d.Returned, "returned"}} {
		if c.n != 0 {
			parts = append(parts, fmt.Sprintf("%s %d", c.what, c.n))
		}
	}
	if len(parts) == 0 {
		return "nothing done"
	}
	return strings.Join(parts, ", ")
}
