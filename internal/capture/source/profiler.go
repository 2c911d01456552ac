package source

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/mongodb"
)

// AppName is the appName capture connects with; its own commands, which a
// profiler at level 2 records too, are left out of what it reads.
const AppName = "mongoload-capture"

// profilerEntry reads one system.profile document.
func profilerEntry(d bson.Raw) entry { return readEntry(d, d.Lookup("ts"), "op", "millis") }

// readEntry reads the fields a profiler document and a log line's attr
// share, at ts; op and millis name the two whose names differ.
func readEntry(d bson.Raw, ts bson.RawValue, op, millis string) entry {
	e := entry{
		cmd:      doc(d.Lookup("command")),
		origin:   doc(d.Lookup("originatingCommand")),
		returned: int64(mongodb.Number(d.Lookup("nreturned"))),
		inserted: int64(mongodb.Number(d.Lookup("ninserted"))),
		millis:   int64(mongodb.Number(d.Lookup(millis))),
	}
	e.opType, _ = d.Lookup(op).StringValueOK()
	e.plan, _ = d.Lookup("planSummary").StringValueOK()
	e.ns, _ = d.Lookup("ns").StringValueOK()
	if t, ok := ts.DateTimeOK(); ok {
		e.ts = bson.DateTime(t).Time().UTC()
	}
	return e
}

// Profiled reads profiler documents into operations, skipping capture's
// own and those outside the wanted databases (all when empty).
type Profiled struct {
	Databases []string
	Tally     Tally
	// Emit, when set, receives each operation as it is read (false: a
	// getMore whose cursor's command was never seen), so that a long
	// capture keeps shapes, not operations; without it Ops keeps them.
	Emit       func(Op) bool
	Ops        []Op
	From, To   time.Time // the first and last operation's time
	Executions float64
	Arrivals   map[int64]float64 // executions per Unix second (or per arrivalWidth seconds)
	// arrivalWidth is the seconds of one Arrivals bucket: 1 until the
	// window holds maxArrivalBuckets of them, doubled then (arrive).
	arrivalWidth int64
	// Fastest is the shortest duration (ms) recorded, to tell a profiler
	// that recorded every operation from one that kept only slow ones.
	Fastest int64
	seen    bool
	// heldRatio: the part of what the profiler held for the window that
	// the tail read (compareHeld), when it read less.
	heldRatio float64
}

// Add reads one profiler document.
func (p *Profiled) Add(d bson.Raw) {
	app, _ := d.Lookup("appName").StringValueOK()
	p.add(d, app, func() entry { return profilerEntry(d) })
}

// add reads one entry, d in the profiler's form; e reads it (a log's
// reader has it already, read in parallel).
func (p *Profiled) add(d bson.Raw, app string, read func() entry) {
	if app == AppName {
		p.Tally.Own++ // said in the summary, not read
		return
	}
	p.Tally.Read++
	e := read()
	if c, _ := e.cmd.Lookup("comment").StringValueOK(); c == mongodb.SetupComment {
		p.Tally.skip("mongoload's own setup reads")
		return
	}
	if why := p.outside(e.ns); why != "" {
		p.Tally.skip(why)
		return
	}
	if !p.seen || e.millis < p.Fastest {
		p.Fastest, p.seen = e.millis, true
	}
	if o, ok := e.read(&p.Tally); ok {
		o.Raw = d
		if o.Count > 0 {
			p.Tally.Used++
		}
		p.Keep(o)
	}
}

// Keep hands o on (Emit) or keeps it (Ops), and widens the window.
func (p *Profiled) Keep(o Op) {
	p.Executions += o.Count
	if !o.TS.IsZero() && o.Count > 0 {
		p.arrive(o.TS.Unix(), o.Count)
	}
	if !o.TS.IsZero() {
		if p.From.IsZero() || o.TS.Before(p.From) {
			p.From = o.TS
		}
		if o.TS.After(p.To) {
			p.To = o.TS
		}
	}
	if p.Emit == nil {
		p.Ops = append(p.Ops, o)
		return
	}
	if !p.Emit(o) {
		p.Tally.skip("getMores of cursors whose command was not recorded (their documents are not counted)")
	}
}

// Source makes the Source of what p read.
func (p *Profiled) Source(name, why string) *Source {
	return &Source{Name: name, Why: why, Tally: p.Tally, Ops: p.Ops, From: p.From, To: p.To, Executions: p.Executions, Sampling: 1, Arrivals: p.Arrivals}
}

// outside says why a namespace is not captured ("" when it is).
func (p *Profiled) outside(ns string) string {
	db, coll, _ := strings.Cut(ns, ".")
	switch {
	case db == "admin" || db == "local" || db == "config":
		return "the " + db + " database"
	case strings.HasPrefix(coll, "system.") && !strings.HasPrefix(coll, BucketsPrefix): // buckets: their time-series collection's (timeseries.go)
		return "system collections"
	case coll == "mongoload_meta":
		return "mongoload's own bookkeeping (mongoload_meta)"
	}
	if len(p.Databases) == 0 {
		return ""
	}
	for _, d := range p.Databases {
		if d == db {
			return ""
		}
	}
	return "other databases than " + strings.Join(p.Databases, ", ")
}

// ReadExport reads exported profiler documents: one extended JSON
// document a line (mongoexport's output, or mongosh's EJSON.stringify),
// canonical or relaxed. Lines that do not parse are counted; it fails
// only when none does.
func (p *Profiled) ReadExport(r io.Reader, name string) error {
	parsed, line := 0, 0
	err := eachLine(r, &p.Tally.TooLong, func(b []byte) error {
		line++
		text := bytes.TrimSpace(b)
		if len(text) == 0 || len(text) == 1 && (text[0] == '[' || text[0] == ']') {
			return nil
		}
		text = bytes.TrimSuffix(text, []byte(","))
		d, err := parseLine(nil, text) // its own: an Op keeps parts of it
		if err != nil {
			p.Tally.Garbage++
			return nil
		}
		parsed++
		p.Add(bson.Raw(d))
		return nil
	})
	if lost, ok := gzipLost(name, err, line, p.Tally.Garbage); ok && parsed > 0 {
		p.Tally.Lost = append(p.Tally.Lost, lost) // gzip.go
		err = nil
	}
	if err != nil {
		return fmt.Errorf("%s: line %d: %w", name, line+1, err)
	}
	if parsed == 0 && line == 0 {
		return fmt.Errorf("%s: %w: the file is empty; export system.profile with mongoexport --collection system.profile", name, errNoLine)
	}
	if parsed == 0 {
		return fmt.Errorf("%s: %w (%d lines read): export system.profile with mongoexport --collection system.profile", name, errNoLine, line)
	}
	return nil
}

// errNoLine: no line of an export is a profiler document.
var errNoLine = errors.New("no line is a profiler document in extended JSON")

// ReadDocuments reads profiler documents written over several lines: one
// after the other, or in a JSON array (JSON.stringify(doc, null, 2), as
// the legacy shell's scripts export them). It stops at the first that
// does not parse, keeping those before.
func (p *Profiled) ReadDocuments(r io.Reader, name string) error {
	dec := json.NewDecoder(r)
	parsed := 0
	var one func(raw json.RawMessage) error
	one = func(raw json.RawMessage) error {
		if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '[' {
			var items []json.RawMessage
			if err := json.Unmarshal(t, &items); err != nil {
				return err
			}
			for _, it := range items {
				if err := one(it); err != nil {
					return err
				}
			}
			return nil
		}
		var d bson.Raw
		if err := bson.UnmarshalExtJSON(raw, false, &d); err != nil {
			p.Tally.Garbage++
			return nil
		}
		parsed++
		p.Add(d)
		return nil
	}
	for {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if err == io.EOF {
			break
		}
		if err == nil {
			err = one(raw)
		}
		if err != nil {
			if parsed == 0 {
				return fmt.Errorf("%s: %w: %v", name, errNoLine, err)
			}
			p.Tally.Garbage++
			break
		}
	}
	if parsed == 0 {
		return fmt.Errorf("%s: %w", name, errNoLine)
	}
	return nil
}

// maxArrivalBuckets bounds the arrival histogram: a week of a log, second
// by second, would be 604,800 buckets. Past it, buckets merge in pairs
// (each keyed by its first second); the curve's steps (curve.go, at most
// 600) are then a hundred buckets or more wide, so a bucket counted at
// its first second moves a step's boundary by under 1%.
const maxArrivalBuckets = 1 << 16

func (p *Profiled) arrive(sec int64, n float64) {
	if p.Arrivals == nil {
		p.Arrivals, p.arrivalWidth = map[int64]float64{}, 1
	}
	p.Arrivals[floorTo(sec, p.arrivalWidth)] += n
	for len(p.Arrivals) > maxArrivalBuckets {
		p.arrivalWidth *= 2
		coarse := make(map[int64]float64, len(p.Arrivals)/2)
		for s, c := range p.Arrivals {
			coarse[floorTo(s, p.arrivalWidth)] += c
		}
		p.Arrivals = coarse
	}
}

// floorTo is sec at the start of its w-second bucket.
func floorTo(sec, w int64) int64 {
	if w <= 1 {
		return sec
	}
	r := sec % w
	if r < 0 {
		r += w
	}
	return sec - r
}
