package cli

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/mongoload/mongoload/internal/capture"
	"github.com/mongoload/mongoload/internal/trace"
)

// captureTrace writes capture --trace's file as the capture reads
// (docs/replay.md): every operation, in the order they started, with its
// literals, so it is written only when the literals were asked for.
type captureTrace struct {
	path    string
	w       *trace.Writer
	err     error
	skipped int // operations with no entry of their own ($queryStats)
}

// startTrace opens the trace file; nil when none was asked for. Without
// --keep-values it refuses before anything is read or written.
func startTrace(path string, keep bool, dbs []string) (*captureTrace, error) {
	switch {
	case path == "":
		return nil, nil
	case !keep:
		return nil, withCode(ExitUsage, errors.New("--trace writes every operation with its literal values (the application's data): add --keep-values to say that this data may leave the deployment"))
	case path == "-" || path == os.Stdout.Name():
		return nil, withCode(ExitUsage, errors.New("--trace needs a file: a trace holds the application's data and is never printed"))
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, withCode(ExitOutput, fmt.Errorf("--trace: %w", err))
	}
	w, err := trace.NewWriter(f, trace.Header{Created: time.Now().UTC(), Tool: "mongoload capture", Databases: dbs})
	if err != nil {
		f.Close()
		os.Remove(path)
		return nil, withCode(ExitOutput, fmt.Errorf("--trace %s: %w", path, err))
	}
	return &captureTrace{path: path, w: w}, nil
}

// add is capture.Options.Trace.
func (t *captureTrace) add(o *capture.Op) {
	e, ok := trace.FromCapture(o)
	if !ok {
		t.skipped++
		return
	}
	if t.err == nil {
		t.err = t.w.Add(e)
	}
}

// finish closes the trace with what the sources recorded and the source's
// identity (run.GuardSource), or removes it when the capture failed (res
// nil).
func (t *captureTrace) finish(res *capture.Result, source []string, summary func(string)) error {
	if t == nil {
		return nil
	}
	tr := trace.Trailer{}
	if res != nil {
		tr = trace.TrailerOf(res)
		tr.CapturedFrom = source
	}
	err := errors.Join(t.err, t.w.Close(tr))
	if res == nil || err != nil {
		os.Remove(t.path)
		if err != nil {
			return withCode(ExitOutput, fmt.Errorf("--trace %s: %w", t.path, err))
		}
		return nil
	}
	msg := fmt.Sprintf("trace: %d operations in %s (replay it with mongoload replay %s --uri URI)", t.w.Written(), t.path, t.path)
	if t.skipped > 0 {
		msg += fmt.Sprintf("; %d from $queryStats are not in it (it records no single operation)", t.skipped)
	}
	summary(msg)
	return nil
}
