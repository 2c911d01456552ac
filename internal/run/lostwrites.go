package run

import (
	"fmt"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/workload"
)

// lostWrites flags the collections that hold fewer documents after the run
// than the writes the server acknowledged imply: the count before, plus the
// documents inserted (insertOne successes), minus at most one per
// successful deleteOne, is a lower bound of the count after. A collection
// whose documents other operations may remove in bulk (deleteMany) has no
// such bound and is not checked. A server that restarted mid-run and came
// back without acknowledged writes is the usual cause.
//
// exact, if it has the namespace, is the count after the run as
// countDocuments gave it: after an unclean shutdown the statistics' count
// may be wrong, and only a real count can say documents were lost.
func lostWrites(plan *workload.Plan, res *results.Result, exact map[string]int64) []string {
	count := map[string]int64{}
	for _, o := range res.Operations {
		count[o.Name] = o.Count
	}
	var notes []string
	for _, cs := range res.Collections {
		if cs.Before == nil || cs.After == nil || cs.Before.Count == nil || cs.After.Count == nil {
			continue
		}
		var inserted, deleted int64
		bounded := true
		for _, op := range plan.AllOps() {
			if op.Collection == nil || op.Collection.Namespace() != cs.Namespace {
				continue
			}
			switch op.Kind {
			case workload.InsertOne:
				if op.Parent == nil { // a step's insert counts only if its transaction committed
					inserted += count[op.Name]
				}
			case workload.DeleteOne:
				deleted += count[op.Name]
			case workload.DeleteMany:
				bounded = false
			}
		}
		before, after := *cs.Before.Count, *cs.After.Count
		if n, ok := exact[cs.Namespace]; ok {
			after = n
		}
		if want := before + inserted - deleted; bounded && after < want {
			why := "documents were removed by another client, or the server lost acknowledged writes"
			if res.Server != nil && res.Server.Restarts > 0 {
				why = "the server restarted during the run and lost acknowledged writes"
			}
			notes = append(notes, fmt.Sprintf("%s holds %d documents after the run, at least %d fewer than acknowledged writes imply (%d before + %d inserted - at most %d deleted): %s",
				cs.Namespace, after, want-after, before, inserted, deleted, why))
		}
	}
	return notes
}
