package ab

import (
	"fmt"
	"strings"

	"github.com/mongoload/mongoload/internal/results"
)

// empty.go: a read shape that found nothing on both sides compared
// nothing. Its results agree (nothing equals nothing) and its latencies are
// those of an index probe that stops at once, however the data differ:
// said per shape, and in the verdict.

// emptyText says how often a shape returned nothing, for its sentence.
func emptyText(o *results.ABOperation) string {
	return fmt.Sprintf("returned no documents in %.0f%% of its verified operations on A and %.0f%% on B: not compared on data", 100*o.EmptyA, 100*o.EmptyB)
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
