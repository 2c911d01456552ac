package workload

import (
	"fmt"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/generate"
)

// Watcher is a compiled change-stream consumer: what Streams streams
// watch (a collection, or a whole database when Collection is ""), with
// the pipeline encoded once.
type Watcher struct {
	Name       string
	Database   string
	Collection string // "" watches the whole database
	// Pipeline is the stages as one BSON array, nil for none.
	Pipeline     []byte
	FullDocument string
	Streams      int
	LagField     string
}

// Target is "db.coll", or "db" for a database's watcher.
func (w *Watcher) Target() string {
	if w.Collection == "" {
		return w.Database
	}
	return w.Database + "." + w.Collection
}

// ChangeEvent is what a watcher needs of one change event: when it was
// committed (the event's wall time, or its cluster time to the second
// where the server gives no wall time), and the date in the document's
// lag field when the watcher names one and the event carries it.
type ChangeEvent struct {
	Commit time.Time
	Field  time.Time // zero when absent
}

// compileWatchers compiles the validated watchers; a pipeline holds no
// generator (it is sent once, when each stream opens).
func compileWatchers(cfg *config.Config) ([]*Watcher, config.Errors) {
	var out []*Watcher
	var es config.Errors
	for i, wc := range cfg.Watchers {
		w := &Watcher{Name: wc.Name, Database: wc.Database, FullDocument: wc.FullDocument, Streams: wc.Streams, LagField: wc.LagField}
		if wc.Database == "" {
			w.Database, w.Collection, _ = strings.Cut(wc.Collection, ".")
		}
		if wc.Pipeline.Kind == config.KindArray {
			arr, err := generate.CompileArray(wc.Pipeline, &generate.Env{KeySpace: func(string) *generate.KeySpace { return nil }})
			if err == nil && hasGen(wc.Pipeline) {
				err = config.Errorf(config.Invalid, wc.Pipeline.Line, "a watcher's pipeline is fixed: it cannot hold a $gen")
			}
			if err != nil {
				es = appendErr(es, locate(err, fmt.Sprintf("watchers[%d].pipeline", i)))
				continue
			}
			w.Pipeline = arr.Append(nil, generate.NewState(0, 0))
		}
		out = append(out, w)
	}
	return out, es
}
