package ab

import (
	"fmt"
	"strings"

	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/workload"
)

// empty.go: a read shape that found nothing on both sides compared
// nothing. Its results agree (nothing equals nothing) and its latencies are
// those of an index probe that stops at once, however the data differ:
// said per shape, and in the verdict.

// emptyText says how often a shape returned nothing, for its sentence.
func emptyText(o *results.ABOperation) string {
	what := "returned no documents"
	if !docsShape(o.Type) {
		what = "matched nothing"
	}
	return fmt.Sprintf("%s in %.0f%% of its verified operations on A and %.0f%% on B: not compared on data", what, 100*o.EmptyA, 100*o.EmptyB)
}

// countEmpty counts an operation that returned or matched nothing on
// either side, and on both (a count of 0 or an update that matched
// nothing on both sides agrees, and says nothing of the data).
func (v *verified) countEmpty(op *workload.Op, a mongodb.Outcome, errA error, b mongodb.Outcome, errB error) {
	if errA != nil || errB != nil || !mayFindNothing(op) {
		return
	}
	ea, eb := nothingDone(op, a), nothingDone(op, b)
	v.emptyA += b2i(ea)
	v.emptyB += b2i(eb)
	v.bothEmpty += b2i(ea && eb)
}

// mayFindNothing: every operation but an insert (which always does
// something) can find nothing to read or write.
func mayFindNothing(op *workload.Op) bool {
	switch op.Kind {
	case workload.InsertOne, workload.InsertMany, workload.Transaction:
		return false
	case workload.Replay:
		return op.Type != "insertOne" && op.Type != "insertMany"
	}
	return true
}

// nothingDone: a read returned no document, a count or a write matched
// nothing.
func nothingDone(op *workload.Op, o mongodb.Outcome) bool {
	if returnsDocs(op) {
		return len(o.Docs) == 0
	}
	return o.Counts.Empty > 0 // shaped: an update, delete or count that matched none
}

// docsShape: the types whose result is the documents they return.
func docsShape(typ string) bool {
	switch typ {
	case "find", "findOne", "aggregate", "findOneAndUpdate", "distinct":
		return true
	}
	return false
}

// emptyNote is the file's note on the shapes not compared on data, with
// the reason when it is known (a captured workload's synthetic values);
// "" when every shape found documents.
func emptyNote(ab *results.AB, captured bool) string {
	names := notCompared(ab)
	if len(names) == 0 {
		return ""
	}
	note := fmt.Sprintf("%s returned no documents in most verified operations on both sides (more than %.0f%%): the two sides were not compared on their data there, and their latencies are those of empty answers",
		strings.Join(names, ", "), 100*results.ABEmptyShare)
	if captured {
		note += "; this workload was captured, and without --keep-values capture writes identifying values as synthetic names, which match nothing in a copy of the data: capture with --keep-values on a copy you may read, or let ab seed both sides (--seed)"
	} else {
		note += "; the values the workload draws match nothing the sides hold: draw them from the data (or let ab seed both sides with --seed)"
	}
	return note
}

// notCompared names the shapes not compared on data.
func notCompared(ab *results.AB) []string {
	var names []string
	for _, o := range ab.Operations {
		if o.NotComparedOnData {
			names = append(names, o.Name)
		}
	}
	return names
}

// agreement is the verdict's words on the verified results: how many
// agree, leaving out those that matched nothing on either side (they
// compared nothing), or which shapes differ.
func agreement(ab *results.AB, differs []string) string {
	if len(differs) > 0 {
		return fmt.Sprintf("verified results differ for %s", strings.Join(differs, ", "))
	}
	if ab.Method.Verify == 0 {
		return "results not verified (--verify 0)"
	}
	if ab.Method.Verified == 0 {
		return "no result verified"
	}
	nothing := 0
	for _, o := range ab.Operations {
		nothing += o.MatchedNothing
	}
	agreed := ab.Method.Verified - nothing
	switch {
	case nothing == 0:
		return fmt.Sprintf("verified results agree (%d operations)", agreed)
	case agreed == 0:
		return fmt.Sprintf("no verified result compared: all %d verified operations matched nothing on either side", nothing)
	}
	return fmt.Sprintf("verified results agree (%d operations; %d more matched nothing on either side, which compares nothing)", agreed, nothing)
}
