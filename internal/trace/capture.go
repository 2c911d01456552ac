package trace

import (
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/capture"
)

// FromCapture makes the entry of an operation capture read, from the
// source's own entry (Op.Raw, in the profiler's form): false when the
// source recorded no single operation ($queryStats' aggregates).
func FromCapture(o *capture.Op) (Entry, bool) {
	d := o.Raw
	if d == nil {
		return Entry{}, false
	}
	// The entry's own millis: a getMore's Op is its cursor's command's,
	// without the getMore's duration.
	dur := time.Duration(o.Millis) * time.Millisecond
	if v, ok := d.Lookup("millis").AsInt64OK(); ok {
		dur = time.Duration(v) * time.Millisecond
	}
	e := Entry{Start: o.TS.Add(-dur), Dur: dur, NS: o.NS(), Shape: capture.ShapeOf(o, func(string, bson.RawValue) {})}
	e.Op, _ = d.Lookup("op").StringValueOK()
	if ns, ok := d.Lookup("ns").StringValueOK(); ok && !strings.HasSuffix(ns, ".$cmd") {
		e.NS = ns
	}
	e.Cmd, _ = d.Lookup("command").DocumentOK()
	e.Conn, _ = d.Lookup("client").StringValueOK()
	e.App, _ = d.Lookup("appName").StringValueOK()
	return e, true
}

// TrailerOf is the trailer of a capture's trace: its sources and the
// names of its shapes.
func TrailerOf(res *capture.Result) Trailer {
	return Trailer{Sources: SourcesOf(res), Names: res.Shapes.OpNames()}
}

// SourcesOf turns a capture's sources into the trailer's.
func SourcesOf(res *capture.Result) []Source {
	var out []Source
	for _, s := range res.Sources {
		out = append(out, Source{Name: s.Name, Complete: s.Complete, Why: s.Why, Sampling: s.Sampling, From: s.From, To: s.To,
			Read: int64(s.Tally.Read), Used: int64(s.Tally.Used)})
	}
	return out
}
