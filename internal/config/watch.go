package config

import (
	"fmt"
	"strings"
)

// Watcher is a change-stream consumer: Streams change streams on one
// collection (Collection, "db.name" or a workload collection's name) or a
// whole database (Database), opened before the measured phase and read
// for its length. Each event's delivery lag is measured from the commit
// (the event's wall time, else its cluster time) or, with LagField, from
// a date the workload wrote into the document.
type Watcher struct {
	Name       string `yaml:"name,omitempty" json:"name"`
	Collection string `yaml:"collection,omitempty" json:"collection,omitempty"`
	Database   string `yaml:"database,omitempty" json:"database,omitempty"`
	// Pipeline filters or reshapes the events ($match, $project, ...).
	Pipeline     Value  `yaml:"pipeline,omitempty" json:"-"`
	FullDocument string `yaml:"fullDocument,omitempty" json:"fullDocument,omitempty"`
	Streams      int    `yaml:"streams,omitempty" json:"streams"`
	// LagField is a top-level date field of the changed document (an
	// insert's, or an update's with fullDocument) to measure lag from.
	LagField string `yaml:"lagField,omitempty" json:"lagField,omitempty"`
	Line     int    `yaml:"-" json:"-"`
}

// FullDocuments are the change streams' fullDocument options.
var FullDocuments = []string{"default", "updateLookup", "whenAvailable", "required"}

// MaxStreams bounds one watcher's streams: each holds a connection.
const MaxStreams = 1000

// Target is what the watcher watches, "db.coll" or "db" (after Validate).
func (w *Watcher) Target() string {
	if w.Database != "" {
		return w.Database
	}
	return w.Collection
}

// validateWatchers checks the watchers and resolves a collection given by
// its workload name to its namespace.
func (c *Config) validateWatchers(add adder) {
	names := map[string]bool{}
	for i := range c.Watchers {
		w := &c.Watchers[i]
		field := fmt.Sprintf("watchers[%d]", i)
		if w.Name == "" {
			add(Invalid, w.Line, field+".name", "a watcher needs a name (it labels its figures)")
		} else if names[w.Name] {
			add(Invalid, w.Line, field+".name", "watcher name %q is used twice", w.Name)
		}
		names[w.Name] = true
		if w.Streams == 0 {
			w.Streams = 1
		}
		if w.Streams < 1 || w.Streams > MaxStreams {
			add(Invalid, w.Line, field+".streams", "%d is out of range: 1 to %d streams (each holds a connection)", w.Streams, MaxStreams)
		}
		checkOneOf(add, field+".fullDocument", w.FullDocument, FullDocuments)
		if w.Pipeline.Kind != KindNull && w.Pipeline.Kind != KindArray {
			add(Invalid, w.Pipeline.Line, field+".pipeline", "a pipeline is a list of stages, for example [{$match: {operationType: insert}}]")
		}
		if strings.ContainsAny(w.LagField, ".$") {
			add(Invalid, w.Line, field+".lagField", "lagField %q must be a top-level field of the document", w.LagField)
		}
		switch {
		case (w.Collection == "") == (w.Database == ""):
			add(Invalid, w.Line, field, "say what the watcher watches: collection (db.name or a workload collection) or database, one of them")
		case w.Database != "":
			if strings.ContainsAny(w.Database, `/\. "$`) {
				add(Invalid, w.Line, field+".database", "%q is not a valid database name", w.Database)
			}
		default:
			if ns, ok := c.namespaceOf(w.Collection); ok {
				w.Collection = ns
			} else if db, coll, dot := strings.Cut(w.Collection, "."); !dot || db == "" || coll == "" {
				add(Invalid, w.Line, field+".collection", "%q is neither a collection of the workload nor database.collection", w.Collection)
			}
		}
	}
}

// namespaceOf resolves a workload collection's name or namespace.
func (c *Config) namespaceOf(name string) (string, bool) {
	for _, col := range c.Collections {
		if col.Name == name || col.Namespace() == name {
			return col.Namespace(), true
		}
	}
	return "", false
}
