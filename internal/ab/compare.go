package ab

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/workload"
)

// compare.go: what counts as the same result on both sides, and how a
// difference is written.

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
	case workload.Replay:
		return docsShape(op.Type)
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
