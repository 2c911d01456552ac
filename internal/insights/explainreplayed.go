package insights

import (
	"context"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/results"
)

// ExplainReplayed explains a captured command as it is replayed (a find,
// an aggregate with its pipeline, a count, a distinct, an update, a delete
// or a findAndModify: explain plans each without writing anything), on
// the database of ns. An insert has no plan, and says so. A write concern
// or a cursor's batch size is no part of the plan and is left out.
func ExplainReplayed(ctx context.Context, c Commander, ns string, cmd bson.Raw) results.Explain {
	els, err := cmd.Elements()
	if err != nil || len(els) == 0 {
		return results.Explain{Error: results.NotExplained + "the command does not read"}
	}
	as := els[0].Key()
	if as == "insert" {
		return results.Explain{As: as, Error: results.NotExplained + "an insert reads nothing, so it has no query plan"}
	}
	inner := bson.D{}
	for _, e := range els {
		switch e.Key() {
		case "writeConcern", "maxTimeMS", "comment":
			continue
		}
		inner = append(inner, bson.E{Key: e.Key(), Value: e.Value()})
	}
	db, _, _ := strings.Cut(ns, ".")
	return explainOn(ctx, c, db, inner, as)
}
