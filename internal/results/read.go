package results

import (
	"encoding/json"
	"fmt"
	"strings"
)

// File is one mongoload JSON file, read as what its schema says it is:
// exactly one of its fields is set.
type File struct {
	Result *Result
	Sweep  *Sweep // a sweep file, or a findmax file as the sweep of its probes
	AB     *AB
}

// Read reads a results, sweep, findmax or A/B file, whichever path holds,
// with the reader its schema names; a version this mongoload does not
// read is refused with a message that names it.
func Read(path string) (*File, error) {
	b, err := ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read %q: %w", path, err)
	}
	schema, err := schemaOf(path, b)
	if err != nil {
		return nil, err
	}
	var f File
	switch {
	case strings.HasPrefix(schema, "mongoload.sweep/"):
		f.Sweep, err = readSweep(path, b, schema)
	case isFindMax(schema): // a rate search reads as the sweep of its probes
		var fm *FindMax
		if fm, err = readFindMax(path, b, schema); err == nil {
			f.Sweep = fm.Sweep()
		}
	case strings.HasPrefix(schema, "mongoload.ab/"):
		f.AB, err = readAB(path, b, schema)
	default:
		f.Result, err = ReadJSON(path)
	}
	if err != nil {
		return nil, err
	}
	return &f, nil
}

// ReadMeasured reads path (Read) and refuses a results or sweep file that
// measured nothing; an A/B file's sides are checked where they are taken.
func ReadMeasured(path string) (*File, error) {
	f, err := Read(path)
	switch {
	case err != nil:
		return nil, err
	case f.Sweep != nil:
		return f, f.Sweep.CheckMeasured(path)
	case f.Result != nil:
		return f, f.Result.CheckMeasured(path)
	}
	return f, nil
}

func readSweep(path string, b []byte, schema string) (*Sweep, error) {
	if schema != SweepSchema {
		return nil, fmt.Errorf("read sweep %q: schema %q is not supported: this mongoload reads %q", path, schema, SweepSchema)
	}
	var sw Sweep
	if err := json.Unmarshal(b, &sw); err != nil {
		return nil, malformedIf(err, fmt.Errorf("read sweep %q: %s: the file does not have the shape of %s; write it again with mongoload sweep --out, or fix that field", path, jsonProblem(b, err), SweepSchema))
	}
	return &sw, nil
}

func readAB(path string, b []byte, schema string) (*AB, error) {
	if schema != ABSchema {
		return nil, fmt.Errorf("read ab %q: schema %q is not supported: this mongoload reads %q", path, schema, ABSchema)
	}
	var ab AB
	if err := json.Unmarshal(b, &ab); err != nil {
		return nil, fmt.Errorf("read ab %q: %s: the file does not have the shape of %s; write it again with mongoload ab --out", path, jsonProblem(b, err), ABSchema)
	}
	return &ab, nil
}
