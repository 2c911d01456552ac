package run

import (
	"context"
	"io"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/workload"
)

// setupOptions are the setup rules of cfg (create, --drop,
// --allow-existing, --create-indexes, what seeding will insert).
func setupOptions(cfg *config.Config) mongodb.SetupOptions {
	return mongodb.SetupOptions{
		Create: cfg.Run.Setup == nil || *cfg.Run.Setup, Drop: cfg.Run.Drop, AllowExisting: cfg.Run.AllowExisting,
		CreateIndexes: cfg.Run.CreateIndexes, Workload: cfg.Name, Fill: seedFill(cfg),
		OwnIndexes: partitioned(cfg), // another process of the run created it
	}
}

// CheckSetup asks what Open would refuse before it changes anything (a
// captured workload's own source, a collection mongoload may not write
// to), and changes nothing: a command that opens several sessions (ab's
// two sides) refuses before either is created or seeded.
func CheckSetup(ctx context.Context, log io.Writer, cfg *config.Config, plan *workload.Plan) error {
	if Noop(cfg) {
		return nil
	}
	client, err := connectGuarded(ctx, log, cfg, mongodb.ConnectOptions{})
	if err != nil {
		return err
	}
	defer client.Close()
	if err := client.CheckSetup(ctx, plan, setupOptions(cfg)); err != nil {
		return SetupError(ctx, err)
	}
	return nil
}

// connectGuarded connects and refuses a captured workload's own source
// (unless --write-to-source), before anything is written there.
func connectGuarded(ctx context.Context, log io.Writer, cfg *config.Config, opts mongodb.ConnectOptions) (*mongodb.Client, error) {
	client, err := Connect(ctx, log, cfg, opts)
	if err != nil {
		return nil, err
	}
	if err := GuardSource(ctx, client, cfg.CapturedFrom, cfg.Run.WriteToSource); err != nil {
		client.Close()
		return nil, err
	}
	return client, nil
}

// partitioned reports whether the run is one part of several (--partition).
func partitioned(cfg *config.Config) bool {
	p, _ := config.ParsePartition(cfg.Run.Partition) // validated already
	return p.Count > 1
}
