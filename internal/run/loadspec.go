package run

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/loader"
)

// DefaultLoadBatchSize is --batch-size's default: documents per insertMany.
const DefaultLoadBatchSize = loader.DefaultBatchSize

// LoadProgress is a load's progress, as its bar and the dashboard show it.
type LoadProgress = loader.Progress

// ReadLoadSpec reads load's own options (--documents, --size,
// --batch-size, --workers, --indexes, --load-write-concern, --resume,
// --collection) by src's layers (the flag, else its MONGOLOAD_ variable,
// else its default), and checks them all at once.
func ReadLoadSpec(src config.Sources, cfg *config.Config) (LoadSpec, error) {
	var a LoadSpec
	var es config.Errors
	get := src.Value
	source := func(field string) config.Source { return config.Source{Name: field} } // the flag or its variable
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
	if v, field, ok := get("collection"); ok {
		a.Only, a.OnlyFrom = config.SplitList(v), field
	}
	if !a.HasDocuments && a.Size == 0 && !a.Resume && !Seeds(cfg) && len(es) == 0 {
		bad("--documents", "say how many documents to load, for example --documents 1000000 or --size 50GB (or --resume to finish an interrupted load)")
	}
	a.Part, _ = config.ParsePartition(cfg.Run.Partition) // validated with the configuration
	if a.Part.Count > 1 && cfg.Run.Drop {
		bad(cfg.Origin("run.drop"), "with --partition each process would drop what the others loaded: drop once first (mongoload load --drop --documents 0), then start the partitions without --drop")
	}
	return a, es.Err()
}
