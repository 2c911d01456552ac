package history

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// A directory store holds one gzip file per result, the results file as
// its command writes it (zcat gives it back byte for byte; report and
// compare read it as it is), and a marker file that makes it a store. The
// entry's identity (host, digest, ...) rides in the gzip header's comment.
const (
	marker     = ".mongoload-history"
	markerText = "mongoload.history-store/v1\n"
	entryExt   = ".json.gz"
)

// dirStore is a directory store; Skipped names the entries its last
// Entries left out as damaged.
type dirStore struct {
	dir     string
	skipped []string
}

// checkDir refuses a path that is not a store: a file, a directory of
// other files, or (to read) nothing at all.
func checkDir(dir string, forAppend bool) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist) && forAppend:
		return nil // made on the first append
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%w: %s does not exist: give the directory (or mongodb:// URI) that --history wrote to", ErrNotStore, dir)
	case err != nil:
		return fmt.Errorf("%w: %s: %v", ErrNotStore, dir, err)
	case !st.IsDir():
		return fmt.Errorf("%w: %s is a file: a store is a directory (or a mongodb:// URI) that --history writes", ErrNotStore, dir)
	}
	if _, err := os.Stat(filepath.Join(dir, marker)); err == nil {
		return nil
	}
	names, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrNotStore, dir, err)
	}
	switch {
	case forAppend && len(names) == 0:
		return nil
	case len(names) == 0:
		return fmt.Errorf("%w: %s is empty: no run has kept a result there yet (run ... --history %s)", ErrNothing, dir, dir)
	}
	return fmt.Errorf("%w: %s holds other files and no %s: give a new or empty directory, or one --history wrote to", ErrNotStore, dir, marker)
}

func (d *dirStore) Close() {}

func (d *dirStore) Append(_ context.Context, e Entry) error {
	dir := d.dir
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("history store %s: %w", dir, err)
	}
	if err := os.WriteFile(filepath.Join(dir, marker), []byte(markerText), 0o644); err != nil {
		return fmt.Errorf("history store %s: %w", dir, err)
	}
	meta, err := json.Marshal(e)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Comment = string(meta) // JSON escapes non-ASCII: the header's Latin-1 holds it
	zw.ModTime = e.Time
	if _, err := zw.Write(e.Doc); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	name := e.Time.UTC().Format("20060102T150405.000000000Z") + "-" + safe(e.Workload)
	if l := safe(e.Label); l != "" {
		name += "-" + l
	}
	return writeEntry(dir, name, buf.Bytes())
}

// writeEntry writes an entry whole or not at all: into a temporary file of
// the store's directory (its name starts with ".", so no reader globs it),
// synced, then linked under its name, so a run killed while writing leaves
// no damaged entry behind. The link fails on an existing name where a
// rename would replace it: two runs that start in the same nanosecond keep
// both entries (.2, .3, ...).
func writeEntry(dir, name string, b []byte) error {
	tmp, err := os.CreateTemp(dir, ".writing-*.tmp")
	if err != nil {
		return fmt.Errorf("history store %s: %w", dir, err)
	}
	defer os.Remove(tmp.Name())
	err = tmp.Chmod(0o644) // CreateTemp's 0600: an entry is as readable as the results file it holds
	if err == nil {
		_, err = tmp.Write(b)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("history store %s: %w", dir, err)
	}
	for i := 1; ; i++ {
		p := filepath.Join(dir, name+entryExt)
		if i > 1 {
			p = filepath.Join(dir, fmt.Sprintf("%s.%d%s", name, i, entryExt))
		}
		err := os.Link(tmp.Name(), p)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil { // a file system without hard links: a rename, which the name's absence was checked for
			if _, serr := os.Lstat(p); serr == nil {
				continue
			}
			err = os.Rename(tmp.Name(), p)
		}
		if err != nil {
			return fmt.Errorf("history store %s: %w", dir, err)
		}
		syncDir(dir)
		return nil
	}
}

// syncDir makes the new name durable; a directory that cannot be synced
// (some file systems refuse) still holds the entry once the kernel writes it.
func syncDir(dir string) {
	if f, err := os.Open(dir); err == nil {
		_ = f.Sync()
		f.Close()
	}
}

// Entries are the entries q selects. A damaged entry (cut short, empty,
// not gzip or not JSON: a run killed while an older mongoload wrote it in
// place, a disk that failed) is left out and named in Skipped, so that one
// bad file does not stop every later gate; an entry of another schema
// still fails the read (it is a newer mongoload's, not damage).
func (d *dirStore) Entries(_ context.Context, q Query) ([]Entry, error) {
	paths, err := filepath.Glob(filepath.Join(d.dir, "*"+entryExt))
	if err != nil {
		return nil, err
	}
	var out []Entry
	d.skipped = nil
	for _, p := range paths {
		e, err := readEntry(p)
		var damage *damagedError
		if errors.As(err, &damage) {
			d.skipped = append(d.skipped, damage.Error())
			continue
		}
		if err != nil {
			return nil, err
		}
		if q.selects(e) {
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time.Before(out[j].Time) })
	return out, nil
}

// readEntry reads one entry file; its metrics are read again from the
// result, so that a newer mongoload reads what an older one kept.
func readEntry(p string) (Entry, error) {
	f, err := os.Open(p)
	if err != nil {
		return Entry{}, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return Entry{}, &damagedError{p, fmt.Sprintf("not a gzip file (%v)", err)}
	}
	doc, err := io.ReadAll(zr)
	if err != nil {
		return Entry{}, &damagedError{p, fmt.Sprintf("cut short or damaged (%v)", err)}
	}
	if !json.Valid(doc) {
		return Entry{}, &damagedError{p, "not whole JSON (cut short?)"}
	}
	var meta Entry
	_ = json.Unmarshal([]byte(zr.Comment), &meta) // absent: a result gzipped by hand, read as from no host
	e, err := NewEntry(doc, meta.Host)
	if err != nil {
		return Entry{}, fmt.Errorf("%s: %w", p, err)
	}
	if meta.Version != "" && e.Version == "" {
		e.Version = meta.Version
	}
	return e, nil
}

// damagedError is an entry that cannot be read at all.
type damagedError struct{ path, why string }

func (e *damagedError) Error() string { return e.path + ": " + e.why }

// Skipped names the entries the last Entries left out as damaged, each
// with why.
func (d *dirStore) Skipped() []string { return d.skipped }
