package results

import (
	"fmt"
	"math"
)

// flagEmpty adds a note for every operation whose share of empty results is
// above threshold: a benchmark whose reads find nothing measures index
// misses, not the application. The note names the cause where the workload
// shows it (causes, by operation name).
func (res *Result) flagEmpty(threshold float64, causes map[string]string) {
	if threshold <= 0 {
		threshold = DefaultEmptyThreshold
	}
	for i := range res.Operations {
		op := &res.Operations[i]
		if n := EmptyNote(op, threshold, causes[op.Name]); n != "" {
			res.Notes = append(res.Notes, n)
		}
	}
}

// EmptyNote is the note flagging op when its share of empty results is
// above threshold, "" otherwise: "find_flight: 98% of finds returned no
// document: CAUSE".
func EmptyNote(op *Operation, threshold float64, cause string) string {
	d := op.Docs
	if d == nil || d.Shaped == 0 || d.EmptyShare() <= threshold {
		return ""
	}
	what, none := emptyWords(op.Type)
	pct := math.Floor(100 * d.EmptyShare())
	if d.Empty == d.Shaped {
		pct = 100
	}
	n := fmt.Sprintf("%s: %.0f%% of %s %s (%d of %d)", op.Name, pct, what, none, d.Empty, d.Shaped)
	if cause == "" {
		cause = "check that its filter can match the collection's documents (the values it draws, their type, the keys seeded)"
	}
	return n + ": " + cause
}

// emptyWords says what an operation of type typ is called in the plural and
// what finding nothing means for it.
func emptyWords(typ string) (what, none string) {
	switch typ {
	case "updateOne", "updateMany", "replaceOne", "findOneAndUpdate":
		return "updates", "matched no document"
	case "deleteOne", "deleteMany":
		return "deletes", "deleted no document"
	case "countDocuments":
		return "counts", "matched no document"
	case "aggregate":
		return "aggregations", "returned no document"
	case "readModifyWrite":
		return "read-modify-writes", "found no document to update"
	case "":
		return "operations", "found no document"
	}
	return "finds", "returned no document"
}
