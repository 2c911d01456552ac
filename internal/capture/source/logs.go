package source

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/mongodb"
)

// ReadLogs reads mongod's structured JSON logs (4.4 and later): the "Slow
// query" lines, plain or gzip, several files in the order of their first
// line's time. A getMore is folded into its originatingCommand; commands
// the server truncated ($truncated) are counted and skipped; lines that
// are not JSON are counted, and fail the capture only when none parses.
func ReadLogs(paths []string, dbs []string, emit func(Op) bool) (*Source, error) {
	type file struct {
		path  string
		first time.Time
		data  []byte
	}
	var files []file
	lr := &logReader{p: Profiled{Databases: dbs, Emit: emit}}
	for _, p := range paths {
		data, note, err := readMaybeGzip(p)
		if err != nil {
			return nil, fmt.Errorf("log %s: %w", p, err)
		}
		if note != "" {
			lr.p.Tally.Lost = append(lr.p.Tally.Lost, "log "+note)
		}
		files = append(files, file{p, firstTime(data), data})
	}
	slices.SortStableFunc(files, func(a, b file) int { return a.first.Compare(b.first) })
	for _, f := range files {
		if err := lr.read(f.data, f.path); err != nil {
			return nil, err
		}
	}
	if lr.parsed == 0 {
		return nil, fmt.Errorf("%s: no line is a mongod JSON log entry (%d lines read): capture needs MongoDB 4.4 or later's structured log", strings.Join(paths, ", "), lr.lines)
	}
	lr.finish()
	return lr.p.Source("log "+strings.Join(paths, ", "), "a log holds the operations slower than slowms (100 ms by default): the mix of slow operations, not the rate, unless the server ran with slowms 0 (then give the rate with --rate, or read the profiler)"), nil
}

type logReader struct {
	p          Profiled
	parsed     int
	lines      int
	statements int     // per-statement update and delete entries
	writeCmds  []entry // update and delete commands, used when no statement was logged
}

func (lr *logReader) read(data []byte, name string) error {
	err := eachLine(bytes.NewReader(data), &lr.p.Tally.TooLong, func(line []byte) {
		lr.lines++
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			return
		}
		var d bson.Raw
		if err := bson.UnmarshalExtJSON(line, false, &d); err != nil {
			lr.p.Tally.Garbage++
			return
		}
		lr.parsed++
		// "slow query" in 4.3 and early 4.4, "Slow query" after; id 51803 in all.
		if msg, _ := d.Lookup("msg").StringValueOK(); !strings.EqualFold(msg, "Slow query") && mongodb.Number(d.Lookup("id")) != 51803 {
			return
		}
		if d.Lookup("truncated").Type != 0 {
			// MongoDB 8.0 cuts a long command silently: attr.command is
			// then partial, with no $truncated inside (a $match that lost
			// its predicate reads as a full scan), and only the top-level
			// "truncated" and "size" beside attr say so.
			lr.p.Tally.Read++
			lr.p.Tally.Truncated++
			return
		}
		lr.entry(d)
	})
	if err != nil {
		return fmt.Errorf("log %s: line %d: %w", name, lr.lines+1, err)
	}
	return nil
}

// entry reads one Slow query line.
func (lr *logReader) entry(d bson.Raw) {
	e := readEntry(doc(d.Lookup("attr")), d.Lookup("t"), "type", "durationMillis")
	e.conn, _ = d.Lookup("ctx").StringValueOK()
	e.app, _ = d.Lookup("attr", "appName").StringValueOK()
	first := ""
	if els, err := e.cmd.Elements(); err == nil && len(els) > 0 {
		first = els[0].Key()
	}
	switch {
	case first == "getMore":
		e.opType = "getmore"
	case e.opType == "update" || e.opType == "remove":
		lr.statements++
	case first == "update" || first == "delete":
		lr.writeCmds = append(lr.writeCmds, e)
		return
	}
	lr.p.Add(entryDoc(e))
}

// finish reads the update and delete commands' statements when the log
// held no statement of its own (a command is logged beside its slow
// statements; reading both would count them twice).
func (lr *logReader) finish() {
	if lr.statements > 0 {
		for range lr.writeCmds {
			lr.p.Tally.Read++
			lr.p.Tally.skip("update/delete commands (their statements were read)")
		}
		return
	}
	for _, w := range lr.writeCmds {
		list, op := "updates", "update"
		if first, _ := w.cmd.Elements(); len(first) > 0 && first[0].Key() == "delete" {
			list, op = "deletes", "remove"
		}
		coll, _ := w.cmd.Index(0).Value().StringValueOK()
		db, _, _ := strings.Cut(w.ns, ".")
		sts, ok := w.cmd.Lookup(list).ArrayOK()
		if !ok {
			lr.p.Tally.Read++
			lr.p.Tally.skip(op + " commands logged without their statements")
			continue
		}
		vals, _ := sts.Values()
		for _, v := range vals {
			st, _ := v.DocumentOK()
			lr.p.Add(entryDoc(entry{opType: op, ns: db + "." + coll, cmd: st, ts: w.ts, millis: w.millis, conn: w.conn, app: w.app}))
		}
	}
}

// entryDoc writes e as a profiler document, so one reader serves the
// profiler, its exports and the log.
func entryDoc(e entry) bson.Raw {
	d := bson.D{{Key: "op", Value: e.opType}, {Key: "ns", Value: e.ns}, {Key: "command", Value: e.cmd},
		{Key: "nreturned", Value: e.returned}, {Key: "ninserted", Value: e.inserted}, {Key: "millis", Value: e.millis},
		{Key: "ts", Value: bson.NewDateTimeFromTime(e.ts)}, {Key: "planSummary", Value: e.plan}}
	if e.origin != nil {
		d = append(d, bson.E{Key: "originatingCommand", Value: e.origin})
	}
	if e.conn != "" {
		d = append(d, bson.E{Key: "client", Value: e.conn}, bson.E{Key: "appName", Value: e.app})
	}
	raw, _ := bson.Marshal(d)
	return raw
}

// firstTime is the time of a log's first line that has one.
func firstTime(data []byte) time.Time {
	var first time.Time
	long := 0
	_ = eachLine(bytes.NewReader(data), &long, func(line []byte) {
		var raw bson.Raw
		if !first.IsZero() || bson.UnmarshalExtJSON(line, false, &raw) != nil {
			return
		}
		if t, ok := raw.Lookup("t").DateTimeOK(); ok {
			first = bson.DateTime(t).Time()
		}
	})
	return first
}
