package mongodb

import (
	"context"

	"github.com/mongoload/mongoload/internal/workload"
)

// CreateIndexes creates the indexes of col, for a load that left them
// until its data was in (SetupOptions.SkipIndexes): building an index
// once over loaded data is faster than maintaining it on every insert. It
// returns one-line notices, as Prepare does.
func (cl *Client) CreateIndexes(ctx context.Context, col *workload.Collection) ([]string, error) {
	return cl.createIndexes(ctx, col)
}
