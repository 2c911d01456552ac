package mongodb

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/mongoload/mongoload/internal/workload"
)

// CreateIndexes creates the indexes of col, for a load that left them
// until its data was in (SetupOptions.SkipIndexes). It asks for all of
// them but the hashed ones in one createIndexes command, which MongoDB
// builds in a single scan of the collection; hashed indexes, which some
// servers refuse, come after, one by one, as in setup and with the same
// notices. If the server refuses the single command, the indexes are
// created one by one.
func (cl *Client) CreateIndexes(ctx context.Context, col *workload.Collection) ([]string, error) {
	if !cl.MayIndex(col.Namespace()) { // it existed before the load: its indexes are the user's
		n, err := cl.missingNotice(ctx, col)
		if n == "" {
			return nil, err
		}
		return []string{n}, err
	}
	sharded, err := cl.Sharded(ctx)
	if err != nil {
		return nil, fmt.Errorf("ask the server for its topology: %w", err)
	}
	var models []mongo.IndexModel
	rest := *col
	rest.Indexes = nil
	for _, ix := range col.Indexes {
		if ix.Hashed {
			rest.Indexes = append(rest.Indexes, ix)
			continue
		}
		models = append(models, indexModel(ix))
	}
	if len(models) > 0 {
		_, err := cl.c.Database(col.Database).Collection(col.Name).Indexes().CreateMany(ctx, models)
		if ctx.Err() != nil {
			return nil, err
		}
		if err != nil {
			return cl.createIndexes(ctx, col, sharded)
		}
	}
	return cl.createIndexes(ctx, &rest, sharded)
}
