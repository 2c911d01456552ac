package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/loader"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/workload"
)

// seed tops every collection up to cfg.Run.Seed documents with the loader,
// before a run. Seeding is a load that resumes by itself: a run whose
// seeding was interrupted continues it the next time with the same --seed.
func seed(ctx context.Context, log io.Writer, cfg *config.Config, plan *workload.Plan, client *mongodb.Client) error {
	workers := seedWorkers(cfg)
	part, _ := config.ParsePartition(cfg.Run.Partition) // validated already
	for i, col := range plan.Collections {
		target := SeedTarget(cfg, i)
		if target == 0 {
			continue
		}
		var unfinished *loader.UnfinishedError
		res, err := loader.Load(ctx, loader.NewInserter(client, nil), loader.NewStore(client), col, loader.Options{
			Target: target, Part: part.Index, Parts: part.Count, BatchSize: cfg.Run.SeedBatchSize, Workers: workers,
			Resume: true, RandomSeed: cfg.Run.RandomSeed, Retryable: mongodb.IsRetryableLoadError,
			OnProgress: func(p loader.Progress) { fmt.Fprintln(log, seedLine(p)) },
			OnNotice:   func(s string) { fmt.Fprintln(log, "notice: "+s) },
		})
		switch {
		case err == nil && res.Nothing:
			fmt.Fprintf(log, "seed %s: already holds %d documents\n", col.Namespace(), res.Target)
		case err == nil:
		case errors.As(err, &unfinished):
			// The loader words its fix in load's flags; say it in commands that work.
			return fail(Refused, fmt.Errorf("seeding %s: an unfinished seed or load to %s documents holds %s of them: finish it with `%s` (and the same connection flags), or start over with --drop",
				col.Namespace(), results.Thousands(unfinished.Target), results.Thousands(unfinished.Holds), finishCommand(cfg, col, unfinished.Partitions)))
		case errors.Is(err, loader.ErrConflict):
			return fail(Refused, err)
		case ctx.Err() != nil || errors.Is(err, context.Canceled):
			return fail(Interrupted, errors.New(seedStopped(cfg, col, res, part.Count, "interrupted", "")))
		case mongodb.IsUnavailable(err):
			// The server went away (killed, frozen past the timeouts): the
			// same hint as an interruption, on one line, not the driver's.
			why := fmt.Sprintf("stopped: the server went away (%s)", mongodb.Classify(err))
			return fail(ServerFailure, errors.New(seedStopped(cfg, col, res, part.Count, why, "once it is back, ")))
		default:
			return fail(ServerFailure, fmt.Errorf("seeding %s: %w", col.Namespace(), err))
		}
	}
	return nil
}

// seedStopped is the one line of a seeding that stopped before its
// target: how far it got, and the commands that continue it.
func seedStopped(cfg *config.Config, col *workload.Collection, res loader.Result, parts int, why, when string) string {
	return fmt.Sprintf("seeding %s %s after %s of %s documents: %srun the same command again to continue it, or finish the seeding alone with `%s` (and the same connection flags)",
		col.Namespace(), why, results.Thousands(res.Done()), results.Thousands(res.Total), when, finishCommand(cfg, col, parts))
}

// finishCommand is a command that finishes an interrupted seed or load of
// col: mongoload load resumes whatever target the load was started with.
func finishCommand(cfg *config.Config, col *workload.Collection, parts int) string {
	src := strings.TrimPrefix(cfg.Source, "builtin:")
	cmd := fmt.Sprintf("mongoload load %s --collection %s --resume", src, col.Namespace())
	if parts > 1 {
		cmd += fmt.Sprintf(" --partition i/%d (each i from 0 to %d)", parts, parts-1)
	}
	return cmd
}

// seedWorkers is --seed-workers, or by default the smaller of
// --concurrency and the loader's default (2 per core, 4 to 32), as its
// help says.
func seedWorkers(cfg *config.Config) int {
	if cfg.Run.SeedWorkers > 0 {
		return cfg.Run.SeedWorkers
	}
	return min(cfg.Run.Concurrency, loader.DefaultWorkers())
}

// SeedTarget is how many documents collection i holds before a run: its own
// seed, or the run's, scaled by run.seedScale (never to 0 when asked for some).
func SeedTarget(cfg *config.Config, i int) int64 {
	n := cfg.Run.Seed
	if i < len(cfg.Collections) && cfg.Collections[i].Seed > 0 {
		n = cfg.Collections[i].Seed
	}
	if s := cfg.Run.SeedScale; s > 0 && n > 0 {
		n = max(1, int64(float64(n)*s+0.5))
	}
	return n
}

// seedFill tells setup which collections seeding will insert into: those
// holding fewer documents than their seed count. Seeding is a write, under
// the same ownership rule as the operations' writes.
func seedFill(cfg *config.Config) func(*workload.Collection, int64) string {
	targets := map[string]int64{}
	for i := range cfg.Collections {
		targets[cfg.Collections[i].Namespace()] = SeedTarget(cfg, i)
	}
	return func(col *workload.Collection, holds int64) string {
		if t := targets[col.Namespace()]; t > holds {
			return fmt.Sprintf("seeding it to %d documents would insert into it", t)
		}
		return ""
	}
}

// Seeds reports whether any collection is to be seeded.
func Seeds(cfg *config.Config) bool {
	for i := range cfg.Collections {
		if SeedTarget(cfg, i) > 0 {
			return true
		}
	}
	return false
}

// seedLine is one progress line of seeding, one per second.
func seedLine(p loader.Progress) string {
	pct := 100 * p.Fraction()
	line := fmt.Sprintf("seed %s%s: %d/%d documents (%.0f%%) %.0f docs/s %.1f MB/s", p.Collection, loader.PartLabel(p.Part, p.Parts), p.Done(), p.Total, pct, p.Rate(), p.MBps())
	switch {
	case p.Unfinished():
		return line + fmt.Sprintf(" stopped after %s, unfinished", p.Elapsed.Round(time.Millisecond))
	case p.Final:
		return line + fmt.Sprintf(" in %s", p.Elapsed.Round(time.Millisecond))
	case p.ETAUnbounded():
		return line + " ETA over 100 years"
	}
	return line + fmt.Sprintf(" ETA %s", p.ETA().Round(time.Second))
}
