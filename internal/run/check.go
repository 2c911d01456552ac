package run

import (
	"context"
	"fmt"
	"io"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/mongodb"
	invariants "github.com/mongoload/mongoload/internal/verify"
)

// Check is mongoload verify's work: it connects and reads, from database,
// the figures of the invariants that a workload's transactions must keep
// (name: the workload, such as payments), and the hosts it read them
// from. A database that holds no card is a Usage error: nothing ran there.
func Check(ctx context.Context, log io.Writer, cfg *config.Config, name, database string, schema invariants.Schema) (*invariants.Figures, string, error) {
	client, err := Connect(ctx, log, cfg, mongodb.ConnectOptions{})
	if err != nil {
		return nil, "", err
	}
	defer client.Close()
	f, err := invariants.ReadPayments(ctx, client, database, schema)
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, "", fail(Interrupted, fmt.Errorf("verify interrupted"))
	case err != nil:
		return nil, "", fail(ServerFailure, fmt.Errorf("verify %s: %w", name, err))
	case f.Cards() == 0:
		return nil, "", fail(Usage, fmt.Errorf("verify %s: %s.%s holds no card: nothing to verify (run 'mongoload run %s' first, or name its database with --database)",
			name, database, schema.Cards, name))
	}
	return f, client.Hosts, nil
}
