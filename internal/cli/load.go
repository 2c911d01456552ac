package cli

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/spf13/pflag"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/dashboard"
	"github.com/mongoload/mongoload/internal/loader"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/run"
	"github.com/mongoload/mongoload/internal/workload"
)

// loadFlags are the flags of mongoload load besides the common settings.
// Each can also be set as MONGOLOAD_<FLAG> (MONGOLOAD_DOCUMENTS, ...).
var loadFlags = []struct {
	name, def, usage string
	boolean          bool
	join             string // repeatable: values joined by it (settingValue)
}{
	{"documents", "", "documents each collection holds after the load (keys 0 to N-1; default: the workload's seed counts); 0 only sets up collections and indexes", false, ""},
	{"size", "", "load each collection to this much BSON instead, such as 50GB or 2TiB (from the documents' average size)", false, ""},
	{"batch-size", strconv.Itoa(loader.DefaultBatchSize), "documents per insertMany", false, ""},
	{"workers", "2 per core, 4 to 32", "parallel inserters", false, ""},
	{"indexes", "before", "build the workload's indexes before the load, or after it (faster for big loads)", false, ""},
	{"load-write-concern", "", "write concern of the load's inserts: 1, majority, a number of members (default: the connection's)", false, ""},
	{"resume", "", "continue an interrupted load where it stopped", true, ""},
	{"collection", "", "load only these collections (name or database.name, comma separated; repeatable)", false, ","},
}

// loadSettings are the common settings load reads: the connection, the
// seed counts it loads to by default, the data's random seed, who owns the
// collections, the partition, and the dashboard. The run's own (rate,
// duration, SLOs, ...) are not load's flags; their environment variables
// are ignored by it.
var loadSettings = []string{
	"uri", "username", "auth-source", "app-name", "read-preference", "read-concern", "write-concern",
	"max-pool-size", "min-pool-size", "compressors", "connect-timeout", "server-selection-timeout", "op-timeout",
	"seed", "seed-scale", "random-seed", "drop", "allow-existing", "write-to-source", "partition", "label", "dashboard", "dashboard-linger",
}

// loadArgs are the load flags, read from the command line or the
// environment, and the dashboard the progress goes to, if any.
type loadArgs struct {
	run.LoadSpec
	dash *dashboard.Server
}

func addLoadFlags(fs *pflag.FlagSet) {
	for _, f := range loadFlags {
		usage := f.usage + " [" + config.EnvName(f.name) + "]"
		if f.def != "" {
			usage += " (default " + f.def + ")"
		}
		fl := fs.VarPF(&settingValue{join: f.join}, f.name, "", usage)
		if f.boolean {
			fl.NoOptDefVal = "true"
		}
	}
}

// readLoadArgs reads each load flag from the command line, else from its
// MONGOLOAD_ variable, else its default, and checks them all at once.
func readLoadArgs(src config.Sources, cfg *config.Config) (loadArgs, error) {
	var a loadArgs
	var es config.Errors
	get := src.Value
	source := func(field string) config.Source { return config.Source{Name: field} } // "--documents" or its variable
	bad := func(field, format string, args ...any) {
		es = append(es, &config.Error{Kind: config.Invalid, Field: field, Msg: fmt.Sprintf(format, args...)})
	}
	if v, field, ok := get("documents"); ok {
		n, err := config.ParseNumber(source(field), v, config.Range{Max: config.MaxCount, Whole: true, What: "a number of documents (such as 100000000)"})
		es.Add(err)
		a.Documents, a.HasDocuments = int64(n), true
	}
	if v, field, ok := get("size"); ok {
		n, err := loader.ParseSize(v)
		if err != nil {
			bad(field, "%v", err)
		}
		a.Size = n
		if a.HasDocuments {
			bad(field, "give --documents or --size, not both")
		}
	}
	ints := map[string]*int{"batch-size": &a.BatchSize, "workers": &a.Workers}
	for _, name := range []string{"batch-size", "workers"} {
		v, field, ok := get(name)
		if !ok {
			v = map[string]string{"batch-size": strconv.Itoa(loader.DefaultBatchSize), "workers": strconv.Itoa(loader.DefaultWorkers())}[name]
		}
		n, err := config.ParseNumber(source(field), v, config.Range{Min: 1, Max: 100_000, Whole: true, What: "a whole number"})
		es.Add(err)
		*ints[name] = int(n)
	}
	if v, field, ok := get("indexes"); ok {
		switch v {
		case "before":
		case "after":
			a.IndexesAfter = true
		default:
			bad(field, "%q must be before or after%s", v, config.DidYouMean(v, []string{"before", "after"}))
		}
	}
	if v, field, ok := get("load-write-concern"); ok {
		wc, err := loader.ParseWriteConcern(v)
		if err != nil {
			var ce *config.Error
			if errors.As(err, &ce) {
				ce.Field = field
			}
			es = append(es, ce)
		}
		a.WriteConcern = wc
	}
	if v, field, ok := get("resume"); ok {
		b, err := strconv.ParseBool(v)
		if err != nil {
			bad(field, "%q is not true or false", v)
		}
		a.Resume = b
	}
	if v, _, ok := get("collection"); ok {
		a.Only = config.SplitList(v)
	}
	if !a.HasDocuments && a.Size == 0 && !a.Resume && !run.Seeds(cfg) && len(es) == 0 {
		bad("--documents", "say how many documents to load, for example --documents 1000000 or --size 50GB (or --resume to finish an interrupted load)")
	}
	a.Part, _ = config.ParsePartition(cfg.Run.Partition) // validated with the configuration
	if a.Part.Count > 1 && cfg.Run.Drop {
		bad("--drop", "with --partition each process would drop what the others loaded: drop once first (mongoload load --drop --documents 0), then start the partitions without --drop")
	}
	return a, es.Err()
}

// loadCommand fills a workload's collections to --documents documents (or
// --size bytes) each, resumably, with the run's setup rules (create,
// --drop, --allow-existing).
func loadCommand(ctx context.Context, args []string, o IO) (err error) {
	fs := newFlags("load", "[WORKLOAD | -P YCSB-PROPERTIES] [--documents N | --size SIZE] [flags]", o)
	addSettingsOf(fs, loadSettings)
	addLoadFlags(fs)
	addPlgmFlags(fs)
	addYCSBFlags(fs, "load")
	if err := parse(fs, args, 1); err != nil {
		return err
	}
	cfg, plan, _, err := resolve(fs.Arg(0), fs, o)
	if err != nil {
		return err
	}
	la, err := readLoadArgs(sources(fs, o), cfg)
	if err != nil {
		return err
	}
	cols, err := run.SelectCollections(plan, la.Only)
	if err != nil {
		return err
	}
	view, err := startDashboard(o, cfg, "load")
	if err != nil {
		return err
	}
	la.dash = view.dash
	defer func() { view.end(ctx, o, cfg, nil, err) }()
	startPprof(o)
	client, err := connect(ctx, o, cfg)
	if err != nil {
		return err
	}
	defer client.Close()
	if err := run.GuardSource(ctx, client, cfg.CapturedFrom, cfg.Run.WriteToSource); err != nil {
		return err
	}
	if err := run.PrepareLoad(ctx, o.Stderr, client, cfg, plan, cols, &la.LoadSpec); err != nil {
		return err
	}
	if la.HasDocuments && la.Documents == 0 {
		fmt.Fprintf(o.Stdout, "set up %d collection(s) of %s; nothing loaded (--documents 0)\n", len(cols), cfg.Source)
		return nil
	}
	for _, col := range cols {
		if err := loadCollection(ctx, o, cfg, la, client, col); err != nil {
			return err
		}
	}
	return nil
}

// loadCollection loads one collection and reports it.
func loadCollection(ctx context.Context, o IO, cfg *config.Config, la loadArgs, client *mongodb.Client, col *workload.Collection) error {
	target, _ := run.LoadTarget(cfg, &la.LoadSpec, col)
	if !la.HasDocuments && la.Size == 0 && !la.Resume && target == 0 {
		fmt.Fprintf(o.Stdout, "%s: the workload gives it no seed count and --documents is not set: skipped\n", col.Namespace())
		return nil
	}
	if la.Size > 0 {
		n, avg := loader.DocumentsForSize(col, cfg.Run.RandomSeed, la.Size)
		fmt.Fprintf(o.Stderr, "load %s: %s of documents averaging %s of BSON is %s documents\n", col.Namespace(), run.DecimalBytes(la.Size), run.DecimalBytes(int64(avg)), results.Thousands(n))
		target = n
	}
	bar := newProgressBar(o.Stderr, o.Getenv)
	la.OnProgress = func(p loader.Progress) { bar.update(p); la.dash.Progress(p) }
	la.OnNotice = func(s string) { bar.clear(); fmt.Fprintln(o.Stderr, "notice: "+s) }
	res, cpu, err := run.LoadCollection(ctx, client, cfg, &la.LoadSpec, col, target)
	bar.clear()
	if k, _ := run.KindOf(err); k == run.Interrupted {
		fmt.Fprintln(o.Stdout, run.LoadedLine(res, cpu))
	}
	if err != nil {
		return err
	}
	if res.Nothing {
		fmt.Fprintf(o.Stdout, "%s already holds %s documents: nothing to load\n", col.Namespace(), results.Thousands(res.Target))
	} else {
		fmt.Fprintln(o.Stdout, run.LoadedLine(res, cpu))
	}
	switch {
	case la.IndexesAfter && res.LoadFinished && len(col.Indexes) > 0:
		wall, err := run.BuildIndexes(ctx, o.Stderr, client, col)
		if err == nil {
			fmt.Fprintf(o.Stdout, "built the indexes of %s in %s\n", col.Namespace(), results.Rounded(wall))
		}
		return err
	case la.IndexesAfter && !res.LoadFinished:
		fmt.Fprintf(o.Stdout, "%s: indexes are built by the last partition to finish\n", col.Namespace())
	case res.PartFinished && !res.LoadFinished:
		fmt.Fprintf(o.Stdout, "%s: this partition is done; the others are still loading\n", col.Namespace())
	}
	return nil
}
