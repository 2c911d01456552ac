package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/loader"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/workload"
)

// seed tops every collection up to cfg.Run.Seed documents.
func seed(ctx context.Context, o IO, cfg *config.Config, plan *workload.Plan, client *mongodb.Client) error {
	workers := cfg.Run.SeedWorkers
	if workers == 0 {
		workers = min(cfg.Run.Concurrency, 8)
	}
	for _, col := range plan.Collections {
		p, err := loader.Fill(ctx, client, col, loader.Options{
			Target: cfg.Run.Seed, BatchSize: cfg.Run.SeedBatchSize, Workers: workers,
			RandomSeed: cfg.Run.RandomSeed, OnProgress: func(p loader.Progress) { fmt.Fprintln(o.Stderr, progressLine(p)) },
		})
		saveCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		saveErr := client.SaveKeys(saveCtx, plan)
		cancel()
		switch {
		case err == nil && saveErr == nil:
			continue
		case ctx.Err() != nil || errors.Is(err, context.Canceled):
			return withCode(ExitInterrupted, fmt.Errorf("seeding %s interrupted after %d documents", col.Namespace(), p.Done))
		case err == nil:
			err = saveErr
		}
		return withCode(ExitServerFailure, fmt.Errorf("seeding %s: %w", col.Namespace(), err))
	}
	return nil
}

func progressLine(p loader.Progress) string {
	if p.Total == 0 {
		return fmt.Sprintf("seed %s: already holds enough documents", p.Collection)
	}
	pct := 100 * float64(p.Done) / float64(p.Total)
	mb := float64(p.Bytes) / 1e6 / max(p.Elapsed.Seconds(), 1e-9)
	line := fmt.Sprintf("seed %s: %d/%d documents (%.0f%%) %.0f docs/s %.1f MB/s", p.Collection, p.Done, p.Total, pct, p.Rate(), mb)
	if p.Final {
		return line + fmt.Sprintf(" in %s", p.Elapsed.Round(time.Millisecond))
	}
	return line + fmt.Sprintf(" ETA %s", p.ETA().Round(time.Second))
}
