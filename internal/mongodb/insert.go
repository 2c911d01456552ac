package mongodb

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/mongoload/mongoload/internal/workload"
)

var unordered = options.InsertMany().SetOrdered(false)

// InsertBatch inserts pre-encoded documents with one unordered insertMany,
// the fastest way to load: the server need not stop at the first error.
func (cl *Client) InsertBatch(ctx context.Context, col *workload.Collection, docs [][]byte) error {
	_, err := cl.c.Database(col.Database).Collection(col.Name).InsertMany(ctx, docs, unordered)
	return err
}
