// Package history keeps results over time and finds where they changed:
// a store (a directory or a MongoDB database) that runs append their
// result to (--history), the series of each workload's metrics in time
// order, and their change points (E-Divisive means with a permutation
// test). docs/history.md says how to use it and what it can see.
package history

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
)

// Store is where entries are kept.
type Store interface {
	Append(ctx context.Context, e Entry) error
	// Entries are the entries q selects, in time order.
	Entries(ctx context.Context, q Query) ([]Entry, error)
	Close()
}

// Query selects entries. Zero fields select everything.
type Query struct {
	Since    time.Time
	Workload string
	Label    string // a shell pattern (path.Match): "release-*"
}

// selects applies what a store did not filter itself.
func (q Query) selects(e Entry) bool {
	if q.Label != "" {
		if ok, _ := path.Match(q.Label, e.Label); !ok {
			return false
		}
	}
	return (q.Workload == "" || e.Workload == q.Workload) && !e.Time.Before(q.Since)
}

// ErrNotStore is a store argument that names no store: a file, a
// directory of other files, a missing one where one is read.
var ErrNotStore = errors.New("not a history store")

// IsURI reports whether spec names a MongoDB store rather than a directory.
func IsURI(spec string) bool {
	return strings.HasPrefix(spec, "mongodb://") || strings.HasPrefix(spec, "mongodb+srv://")
}

// Check says, without writing or connecting, whether spec can be appended
// to: a run checks it before it starts rather than after.
func Check(spec string) error {
	if IsURI(spec) {
		return mongodb.CheckURI(spec)
	}
	if IsCSV(spec) {
		return readOnly(spec)
	}
	return checkDir(spec, true)
}

// Open opens the store spec names: a mongodb:// URI, a directory
// (created on the first append when forAppend), or a CSV file to read
// (csvstore.go).
func Open(ctx context.Context, spec string, forAppend bool) (Store, error) {
	if IsURI(spec) {
		return openMongo(ctx, spec)
	}
	if IsCSV(spec) && forAppend {
		return nil, readOnly(spec)
	}
	if IsCSV(spec) {
		return openCSV(spec)
	}
	if err := checkDir(spec, forAppend); err != nil {
		return nil, err
	}
	return &dirStore{dir: spec}, nil
}

func readOnly(spec string) error {
	return fmt.Errorf("%w: %s: mongoload history reads a CSV; --history keeps results in a directory or a mongodb:// URI", ErrReadOnly, spec)
}

// Keep appends doc (a *results.Result, Sweep, FindMax or AB) to the store
// spec names, as from this host.
func Keep(ctx context.Context, spec string, doc any) error {
	if err := finished(doc); err != nil {
		return err
	}
	b, err := Encode(doc)
	if err != nil {
		return err
	}
	host, _ := os.Hostname()
	e, err := NewEntry(b, host)
	if err != nil {
		return err
	}
	s, err := Open(ctx, spec, true)
	if err != nil {
		return err
	}
	defer s.Close()
	return s.Append(ctx, e)
}

// finished refuses a result whose run stopped before its end.
func finished(doc any) error {
	var o results.Outcome
	switch d := doc.(type) {
	case *results.Result:
		o = d.Outcome
	case *results.Sweep:
		o = d.Outcome
	case *results.FindMax:
		o = d.Outcome
	}
	switch o {
	case results.Interrupted, results.ServerLost, results.Failed:
		return fmt.Errorf("%w: its outcome is %s", ErrUnfinished, o)
	}
	return nil
}

// Redact is spec without a password, to print.
func Redact(spec string) string { return config.RedactURI(spec) }
