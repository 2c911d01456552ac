package capture

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/capture/source"
	"github.com/mongoload/mongoload/internal/run"
	"github.com/mongoload/mongoload/internal/trace"
)

// traceFile writes capture --trace's file as the capture reads
// (docs/replay.md): every operation, in the order they started, with its
// literals, through internal/trace's format.
type traceFile struct {
	w       *trace.Writer
	err     error
	skipped int // operations with no entry of their own ($queryStats)
}

// createTrace starts the trace at path, its header naming the source
// deployment; a failure is an output's (run.Output), found before
// anything is read.
func createTrace(path string, dbs []string, source []string) (*traceFile, error) {
	w, err := trace.Create(path, trace.Header{Created: time.Now().UTC(), Tool: "mongoload capture", Databases: dbs, CapturedFrom: source})
	if err != nil {
		return nil, &run.Error{Kind: run.Output, Err: fmt.Errorf("--trace: %w", err)}
	}
	return &traceFile{w: w}, nil
}

// add writes one operation read.
func (t *traceFile) add(o *source.Op) {
	e, ok := traceEntry(o)
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
// nil). It returns the line that tells where the trace is.
func (t *traceFile) finish(res *Result) (string, error) {
	if res == nil {
		t.w.Abort()
		return "", nil
	}
	tr := traceTrailer(res)
	tr.CapturedFrom = res.CapturedFrom
	if err := errors.Join(t.err, t.w.Close(tr)); err != nil {
		t.w.Abort()
		return "", &run.Error{Kind: run.Output, Err: fmt.Errorf("--trace %s: %w", t.w.Path(), err)}
	}
	path := t.w.Path()
	msg := fmt.Sprintf("trace: %d operations in %s (replay it with mongoload replay %s --uri URI)", t.w.Written(), path, path)
	if t.skipped > 0 {
		msg += fmt.Sprintf("; %d from $queryStats are not in it (it records no single operation)", t.skipped)
	}
	return msg, nil
}

// traceEntry makes the entry of an operation capture read, from the
// source's own entry (Op.Raw, in the profiler's form): false when the
// source recorded no single operation ($queryStats' aggregates).
func traceEntry(o *source.Op) (trace.Entry, bool) {
	d := o.Raw
	if d == nil {
		return trace.Entry{}, false
	}
	// The entry's own millis: a getMore's Op is its cursor's command's,
	// without the getMore's duration.
	dur := time.Duration(o.Millis) * time.Millisecond
	if v, ok := d.Lookup("millis").AsInt64OK(); ok {
		dur = time.Duration(v) * time.Millisecond
	}
	e := trace.Entry{Start: o.TS.Add(-dur), Dur: dur, NS: o.NS(), Shape: ShapeOf(o, func(string, bson.RawValue) {})}
	e.Op, _ = d.Lookup("op").StringValueOK()
	if ns, ok := d.Lookup("ns").StringValueOK(); ok && !strings.HasSuffix(ns, ".$cmd") {
		e.NS = ns
	}
	e.Cmd, _ = d.Lookup("command").DocumentOK()
	e.Conn, _ = d.Lookup("client").StringValueOK()
	e.App, _ = d.Lookup("appName").StringValueOK()
	return e, true
}

// traceTrailer is the trailer of a capture's trace: its sources and the
// names of its shapes.
func traceTrailer(res *Result) trace.Trailer {
	var sources []trace.Source
	for _, s := range res.Sources {
		sources = append(sources, trace.Source{Name: s.Name, Complete: s.Complete, Why: s.Why, Sampling: s.Sampling, From: s.From, To: s.To,
			Read: int64(s.Tally.Read), Used: int64(s.Tally.Used)})
	}
	return trace.Trailer{Sources: sources, Names: res.Shapes.OpNames()}
}
