package run

import (
	"context"
	"fmt"
	"io"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/loader"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/workload"
)

// Load is mongoload load's work: it connects, refuses a captured
// workload's own source, sets up the collections cols of plan (the run's
// setup rules: create, --drop, --allow-existing) and fills each to its
// target (--documents, --size or its seed count), resumably. What it did
// goes to out, one line per collection; notices to log.
func Load(ctx context.Context, out, log io.Writer, cfg *config.Config, plan *workload.Plan, cols []*workload.Collection, spec *LoadSpec) error {
	client, err := connectGuarded(ctx, log, cfg, mongodb.ConnectOptions{})
	if err != nil {
		return err
	}
	defer client.Close()
	if err := PrepareLoad(ctx, log, client, cfg, plan, cols, spec); err != nil {
		return err
	}
	if spec.HasDocuments && spec.Documents == 0 {
		fmt.Fprintf(out, "set up %d collection(s) of %s; nothing loaded (--documents 0)\n", len(cols), cfg.Source)
		return nil
	}
	for _, col := range cols {
		if err := loadOne(ctx, out, log, cfg, spec, client, col); err != nil {
			return err
		}
	}
	return nil
}

// loadOne loads one collection and reports it.
func loadOne(ctx context.Context, out, log io.Writer, cfg *config.Config, spec *LoadSpec, client *mongodb.Client, col *workload.Collection) error {
	target, _ := LoadTarget(cfg, spec, col)
	if !spec.HasDocuments && spec.Size == 0 && !spec.Resume && target == 0 {
		fmt.Fprintf(out, "%s: the workload gives it no seed count and --documents is not set: skipped\n", col.Namespace())
		return nil
	}
	if spec.Size > 0 {
		n, avg := loader.DocumentsForSize(col, cfg.Run.RandomSeed, spec.Size)
		fmt.Fprintf(log, "load %s: %s of documents averaging %s of BSON is %s documents\n", col.Namespace(), DecimalBytes(spec.Size), DecimalBytes(int64(avg)), results.Thousands(n))
		target = n
	}
	done := func() {}
	if spec.OnCollection != nil {
		done = spec.OnCollection()
	}
	res, cpu, err := LoadCollection(ctx, client, cfg, spec, col, target)
	done()
	if k, _ := KindOf(err); k == Interrupted {
		fmt.Fprintln(out, LoadedLine(res, cpu))
	}
	if err != nil {
		return err
	}
	if res.Nothing {
		fmt.Fprintf(out, "%s already holds %s documents: nothing to load\n", col.Namespace(), results.Thousands(res.Target))
	} else {
		fmt.Fprintln(out, LoadedLine(res, cpu))
	}
	switch {
	case spec.IndexesAfter && res.LoadFinished && len(col.Indexes) > 0 && !client.MayIndex(col.Namespace()):
		// it existed before this load: its indexes are the user's (issue 38)
		notices, err := client.CreateIndexes(ctx, col)
		for _, n := range notices {
			fmt.Fprintln(log, "notice: "+n)
		}
		return err
	case spec.IndexesAfter && res.LoadFinished && len(col.Indexes) > 0:
		wall, err := BuildIndexes(ctx, log, client, col)
		if err == nil {
			fmt.Fprintf(out, "built the indexes of %s in %s\n", col.Namespace(), results.Rounded(wall))
		}
		return err
	case spec.IndexesAfter && !res.LoadFinished:
		fmt.Fprintf(out, "%s: indexes are built by the last partition to finish\n", col.Namespace())
	case res.PartFinished && !res.LoadFinished:
		fmt.Fprintf(out, "%s: this partition is done; the others are still loading\n", col.Namespace())
	}
	return nil
}
