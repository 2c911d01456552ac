package ab

import (
	"context"
	"fmt"
	"time"

	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/run"
)

// indexes.go: the two sides' index sets, collection by collection. An
// index present on one side only (or the same keys with other options) is
// the first thing that changes plans, and often the very change under
// test: each difference is named before any figure.

// checkIndexes adds each collection's index differences to its data check.
func checkIndexes(ctx context.Context, a, b *run.Session, data []results.ABData) error {
	for i := range data {
		col := a.Plan().Collections[i]
		ctx, cancel := context.WithTimeout(ctx, time.Minute)
		ia, errA := a.Client().ListIndexes(ctx, col.Database, col.Name)
		ib, errB := b.Client().ListIndexes(ctx, col.Database, col.Name)
		cancel()
		if errA != nil || errB != nil {
			return fail(run.ServerFailure, fmt.Errorf("reading %s's indexes to compare the sides: %w", col.Namespace(), firstErr(errA, errB)))
		}
		data[i].IndexDiffs = indexDiffs(ia, ib)
	}
	return nil
}

// indexDiffs names each index one side has and the other lacks (matched by
// key pattern), and each index of the same keys whose options differ.
func indexDiffs(a, b []mongodb.IndexInfo) []string {
	inB := map[string]mongodb.IndexInfo{}
	for _, ix := range b {
		inB[ix.Keys] = ix
	}
	inA := map[string]bool{}
	var out []string
	for _, ix := range a {
		inA[ix.Keys] = true
		other, ok := inB[ix.Keys]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("B lacks the index %s that A has", ix))
		case ix.Options() != other.Options():
			out = append(out, fmt.Sprintf("the index %s differs: A %s, B %s", ix.Keys, optionsText(ix), optionsText(other)))
		}
	}
	for _, ix := range b {
		if !inA[ix.Keys] {
			out = append(out, fmt.Sprintf("B has an index A lacks: %s", ix))
		}
	}
	return out
}

func optionsText(ix mongodb.IndexInfo) string {
	if o := ix.Options(); o != "" {
		return o
	}
	return "without options"
}
