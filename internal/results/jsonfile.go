package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// WriteJSON writes res to path as indented JSON with the current Schema. It
// writes a temporary file in the same directory and renames it over path,
// so an interrupted write never leaves half a file behind.
func WriteJSON(path string, res *Result) error {
	out := *res
	out.Schema = Schema
	return writeIndented("results", path, &out)
}

// writeIndented writes v to path as indented JSON with writeAtomic;
// kind names the file in errors.
func writeIndented(kind, path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("write %s %q: %w", kind, path, err)
	}
	if err := writeAtomic(path, append(b, '\n')); err != nil {
		return fmt.Errorf("write %s %q: %w", kind, path, err)
	}
	return nil
}

// writeAtomic writes b to a temporary file beside path, syncs it and renames
// it to path. Rename within one directory is atomic on POSIX file systems.
func writeAtomic(path string, b []byte) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(b); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	// CreateTemp makes the file 0600; results are meant to be shared.
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp, path); err != nil {
		return err
	}
	syncDir(dir)
	return nil
}

// syncDir makes the rename durable. Some file systems cannot sync a
// directory; the file's contents are already synced, so that is ignored.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// ReadJSON reads a results file. It rejects files of another schema version
// with a message saying which versions are involved; fields it does not
// know are ignored, as the schema allows additions within a version.
func ReadJSON(path string) (*Result, error) {
	b, err := ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	var head struct {
		Schema *string `json:"schema"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, malformedIf(err, fmt.Errorf("read results %q: not a JSON results file: %s", path, jsonProblem(b, err)))
	}
	switch {
	case head.Schema == nil:
		return nil, fmt.Errorf("read results %q: no \"schema\" field: not a mongoload results file", path)
	case *head.Schema == Schema:
	case strings.HasPrefix(*head.Schema, "mongoload.results/"):
		return nil, fmt.Errorf("read results %q: schema %q is not supported: this mongoload reads %q; use the mongoload version that wrote the file, or a newer one",
			path, *head.Schema, Schema)
	default:
		return nil, fmt.Errorf("read results %q: schema %q is not a mongoload results schema (want %q)", path, *head.Schema, Schema)
	}
	var res Result
	if err := json.Unmarshal(b, &res); err != nil {
		return nil, malformedIf(err, fmt.Errorf("read results %q: %s: the file does not have the shape of %s; write it again with mongoload (run --out, merge --out), or fix that field", path, jsonProblem(b, err), Schema))
	}
	return &res, nil
}

// CheckWritable reports whether WriteJSON will be able to write path, so a
// run can fail before it starts rather than after an hour of load. It
// creates and removes a temporary file beside path, as WriteJSON would, and
// leaves nothing behind. inputs are the files the command reads (its
// workload, the files it merges): writing path must not overwrite one.
func CheckWritable(path string, inputs ...string) error {
	return CheckWritableAs("results file", path, inputs...)
}

// CheckWritableAs is CheckWritable for any output file, named what in the
// messages ("interval log").
func CheckWritableAs(what, path string, inputs ...string) error {
	fi, statErr := os.Stat(path)
	if statErr == nil && fi.IsDir() {
		return fmt.Errorf("%s %q is a directory", what, path)
	}
	if statErr == nil {
		for _, in := range inputs {
			if ii, err := os.Stat(in); err == nil && os.SameFile(fi, ii) {
				return fmt.Errorf("output file %q is also an input of this command (%s): writing it would destroy that input; choose another output file", path, in)
			}
		}
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".check-*")
	if err != nil {
		// The temporary name would only confuse; name the directory instead.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		if di, derr := os.Stat(dir); derr == nil && di.IsDir() {
			// The directory is there: say so, whatever errno the file system chose.
			return fmt.Errorf("%s %q cannot be written: mongoload writes it through a new file in directory %q, which does not accept one (%v)", what, path, dir, err)
		}
		return fmt.Errorf("%s %q cannot be written: directory %q: %w", what, path, dir, err)
	}
	name := f.Name()
	f.Close()
	if err := os.Remove(name); err != nil {
		return fmt.Errorf("%s %q: removing the test file %q: %w", what, path, name, err)
	}
	return nil
}
