package capture

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
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
	for _, p := range paths {
		data, err := readMaybeGzip(p)
		if err != nil {
			return nil, fmt.Errorf("log %s: %w", p, err)
		}
		files = append(files, file{p, firstTime(data), data})
	}
	slices.SortStableFunc(files, func(a, b file) int { return a.first.Compare(b.first) })
	lr := &logReader{p: Profiled{Databases: dbs, Emit: emit}}
	for _, f := range files {
		if err := lr.read(f.data, f.path); err != nil {
			return nil, err
		}
	}
	if lr.parsed == 0 {
		return nil, fmt.Errorf("%s: no line is a mongod JSON log entry (%d lines read): capture needs MongoDB 4.4 or later's structured log", strings.Join(paths, ", "), lr.lines)
	}
	lr.finish()
	return lr.p.source("log "+strings.Join(paths, ", "), "a log holds the operations slower than slowms (100 ms by default): the mix of slow operations, not the rate, unless the server ran with slowms 0 (then give the rate with --rate, or read the profiler)"), nil
}

type logReader struct {
	p          Profiled
	parsed     int
	lines      int
	statements int     // per-statement update and delete entries
	writeCmds  []entry // update and delete commands, used when no statement was logged
}

func (lr *logReader) read(data []byte, name string) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		lr.lines++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var d bson.Raw
		if err := bson.UnmarshalExtJSON(line, false, &d); err != nil {
			lr.p.Tally.Garbage++
			continue
		}
		lr.parsed++
		if msg, _ := d.Lookup("msg").StringValueOK(); msg != "Slow query" {
			continue
		}
		lr.entry(d)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("log %s: line %d: %w", name, lr.lines+1, err)
	}
	return nil
}

// entry reads one Slow query line.
func (lr *logReader) entry(d bson.Raw) {
	e := readEntry(doc(d.Lookup("attr")), d.Lookup("t"), "type", "durationMillis")
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
			lr.p.Add(entryDoc(entry{opType: op, ns: db + "." + coll, cmd: st, ts: w.ts, millis: w.millis}))
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
	raw, _ := bson.Marshal(d)
	return raw
}

// firstTime is the time of a log's first line that has one.
func firstTime(data []byte) time.Time {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		var raw bson.Raw
		if bson.UnmarshalExtJSON(sc.Bytes(), false, &raw) != nil {
			continue
		}
		if t, ok := raw.Lookup("t").DateTimeOK(); ok {
			return bson.DateTime(t).Time()
		}
	}
	return time.Time{}
}

// readMaybeGzip reads a file, gunzipping it when it starts with gzip's
// magic bytes (mongod.log.1.gz).
func readMaybeGzip(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(maybeGzip(f))
}

// maybeGzip unzips r when it is gzip; it reads r from the start either way.
func maybeGzip(r io.Reader) io.Reader {
	br := bufio.NewReader(r)
	if magic, err := br.Peek(2); err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		if zr, err := gzip.NewReader(br); err == nil {
			return zr
		}
	}
	return br
}
