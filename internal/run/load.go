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
	"github.com/mongoload/mongoload/internal/procstat"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/workload"
)

// LoadSpec is what mongoload load fills a workload's collections to,
// besides the workload: --documents or --size, how, and which collections.
type LoadSpec struct {
	Documents    int64
	HasDocuments bool
	Size         int64
	BatchSize    int
	Workers      int
	IndexesAfter bool // build the indexes once the data is in
	WriteConcern *config.WriteConcern
	Resume       bool
	Only         []string // --collection: these collections, all when none
	OnlyFrom     string   // what gave Only: --collection or MONGOLOAD_COLLECTION
	Part         config.Partition
	// OnProgress and OnNotice are told the load's progress and notices.
	OnProgress func(loader.Progress)
	OnNotice   func(string)
	// OnCollection is told that a collection's load starts (a progress
	// bar of its own begins), and returns what to call when it ends.
	OnCollection func() (done func())
}

// PrepareLoad sets up the collections cols of plan that spec loads (the
// run's setup rules: create, --drop, --allow-existing).
func PrepareLoad(ctx context.Context, log io.Writer, client *mongodb.Client, cfg *config.Config, plan *workload.Plan, cols []*workload.Collection, spec *LoadSpec) error {
	notices, err := client.Prepare(ctx, &workload.Plan{Name: plan.Name, Collections: cols}, mongodb.SetupOptions{
		Create: true, Drop: cfg.Run.Drop, AllowExisting: cfg.Run.AllowExisting, CreateIndexes: cfg.Run.CreateIndexes, Workload: cfg.Name, SkipIndexes: spec.IndexesAfter,
		// A resumed load, or one part of several, finishes a load that
		// created the collection: its indexes are that load's to build.
		OwnIndexes: spec.Resume || spec.Part.Count > 1,
		Fill: func(col *workload.Collection, holds int64) string {
			if t, known := LoadTarget(cfg, spec, col); !known || t > holds {
				return "loading would insert into it"
			}
			return ""
		},
	})
	for _, n := range notices {
		fmt.Fprintln(log, "notice: "+n)
	}
	if err != nil {
		return SetupError(ctx, err)
	}
	return nil
}

// SelectCollections picks the collections --collection names (all when
// none); from names what gave them (the flag or its variable), for the
// refusal of one the workload lacks.
func SelectCollections(plan *workload.Plan, only []string, from string) ([]*workload.Collection, error) {
	if len(only) == 0 {
		return plan.Collections, nil
	}
	var out []*workload.Collection
	var names []string
	for _, c := range plan.Collections {
		names = append(names, c.Name)
	}
	for _, ref := range only {
		var found *workload.Collection
		for _, c := range plan.Collections {
			if ref == c.Name || ref == c.Namespace() {
				found = c
			}
		}
		if found == nil {
			return nil, &config.Error{Kind: config.Invalid, Field: from,
				Msg: fmt.Sprintf("the workload has no collection %q (it has %s)%s", ref, strings.Join(names, ", "), config.DidYouMean(ref, names))}
		}
		out = append(out, found)
	}
	return out, nil
}

// LoadCollection loads col to target documents (LoadTarget, or what --size
// makes of it) and returns what the load did and the client CPU it took.
// A failure is of its Kind, with the command that continues the load.
func LoadCollection(ctx context.Context, client *mongodb.Client, cfg *config.Config, spec *LoadSpec, col *workload.Collection, target int64) (loader.Result, time.Duration, error) {
	u0 := procstat.Read()
	res, err := loader.Load(ctx, loader.NewInserter(client, spec.WriteConcern), loader.NewStore(client), col, loader.Options{
		Target: target, Part: spec.Part.Index, Parts: spec.Part.Count, BatchSize: spec.BatchSize, Workers: spec.Workers,
		Resume: spec.Resume, RandomSeed: cfg.Run.RandomSeed, OnProgress: spec.OnProgress, OnNotice: spec.OnNotice,
		Retryable: mongodb.IsRetryableLoadError,
	})
	cpu, _ := procstat.Read().Since(u0)
	switch {
	case err == nil:
	case errors.Is(err, loader.ErrConflict):
		err = fail(Refused, err)
	case ctx.Err() != nil:
		err = fail(Interrupted, fmt.Errorf("load of %s interrupted with %s of its %s documents written: run the same command with %s to continue it",
			col.Namespace(), results.Thousands(res.Done()), results.Thousands(res.Total), spec.resumeFlags()))
	case res.Total > 0:
		// The server failed or went away: what it acknowledged is recorded,
		// and --resume redoes the rest (tested with a server killed mid-load).
		err = fail(ServerFailure, fmt.Errorf("%w; %s of %s documents were written: once the server is back, run the same command with %s to continue the load",
			err, results.Thousands(res.Done()), results.Thousands(res.Total), spec.resumeFlags()))
	default:
		err = fail(ServerFailure, err)
	}
	return res, cpu, err
}

// LoadTarget is how many documents col holds after the load: --documents,
// else the workload's seed count for it. known is false when only the
// load itself can tell (--size, --resume).
func LoadTarget(cfg *config.Config, spec *LoadSpec, col *workload.Collection) (target int64, known bool) {
	switch {
	case spec.Size > 0 || (spec.Resume && !spec.HasDocuments):
		return 0, false
	case spec.HasDocuments:
		return spec.Documents, true
	}
	for i := range cfg.Collections {
		if cfg.Collections[i].Namespace() == col.Namespace() {
			target = SeedTarget(cfg, i)
		}
	}
	return target, true
}

// BuildIndexes creates a collection's indexes once its data is in, and
// says how long it took.
func BuildIndexes(ctx context.Context, log io.Writer, client *mongodb.Client, col *workload.Collection) (time.Duration, error) {
	fmt.Fprintf(log, "building %d index(es) of %s...\n", len(col.Indexes), col.Namespace())
	u0 := procstat.Read()
	notices, err := client.CreateIndexes(ctx, col)
	for _, n := range notices {
		fmt.Fprintln(log, "notice: "+n)
	}
	if err != nil {
		if ctx.Err() != nil {
			return 0, fail(Interrupted, fmt.Errorf("interrupted while building the indexes of %s: run the same command with --resume to build them", col.Namespace()))
		}
		return 0, fail(ServerFailure, err) // as in setup: the server refused an index
	}
	_, wall := procstat.Read().Since(u0)
	return wall, nil
}

// resumeFlags are the flags that continue this load.
func (spec *LoadSpec) resumeFlags() string {
	if spec.Part.Count > 1 {
		return fmt.Sprintf("--resume --partition %d/%d", spec.Part.Index, spec.Part.Count)
	}
	return "--resume"
}
