package cli

import (
	"context"
	"fmt"
	"strconv"

	"github.com/spf13/pflag"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/run"
	"github.com/mongoload/mongoload/internal/sink"
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
	{"batch-size", strconv.Itoa(run.DefaultLoadBatchSize), "documents per insertMany", false, ""},
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
// are ignored by it (reading), as a run's settings are.
var loadSettings = []string{
	"uri", "username", "auth-source", "app-name", "read-preference", "read-concern", "write-concern",
	"max-pool-size", "min-pool-size", "compressors", "connect-timeout", "server-selection-timeout", "op-timeout",
	"seed", "seed-scale", "random-seed", "drop", "allow-existing", "create-indexes", "write-to-source", "partition", "label", "dashboard", "dashboard-linger",
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
	cfg, plan, _, err := resolve(fs.Arg(0), fs, o, reading(append(loadSettings, "password")...))
	if err != nil {
		return err
	}
	spec, err := run.ReadLoadSpec(sources(fs, o), cfg)
	if err != nil {
		return err
	}
	cols, err := run.SelectCollections(plan, spec.Only, spec.OnlyFrom)
	if err != nil {
		return err
	}
	view, err := startDashboard(o, cfg, "load")
	if err != nil {
		return err
	}
	defer func() { view.End(ctx, o.Stderr, nil, err) }()
	startPprof(o)
	newBar := func() *sink.ProgressBar[run.LoadProgress] {
		return sink.NewProgressBar(o.Stderr, o.Getenv, run.ProgressLine)
	}
	bar := newBar()
	spec.OnCollection = func() func() {
		bar = newBar()
		return bar.Clear
	}
	spec.OnProgress = func(p run.LoadProgress) { bar.Update(p, p.Final); view.Progress(p) }
	spec.OnNotice = func(s string) { bar.Clear(); fmt.Fprintln(o.Stderr, "notice: "+s) }
	return run.Load(ctx, o.Stdout, o.Stderr, cfg, plan, cols, &spec)
}
