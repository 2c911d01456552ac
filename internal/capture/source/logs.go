package source

import (
	"fmt"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
)

// ReadLogs reads mongod's structured JSON logs (4.4 and later): the "Slow
// query" lines, plain or gzip, several files in the order of their first
// line's time. A getMore is folded into its originatingCommand; commands
// the server truncated ($truncated) are counted and skipped; lines that
// are not JSON are counted, and fail the capture only when none parses.
func ReadLogs(paths []string, dbs []string, emit func(Op) bool) (*Source, error) {
	return ReadLogsShowing(paths, dbs, emit, nil)
}

// ReadLogsShowing is ReadLogs telling progress (bytes, lines per second,
// the time left) on inputs large enough to wait for.
func ReadLogsShowing(paths []string, dbs []string, emit func(Op) bool, progress func(string)) (*Source, error) {
	var files []*logInput
	defer func() {
		for _, f := range files {
			f.close()
		}
	}()
	lr := &logReader{p: Profiled{Databases: dbs, Emit: emit}}
	var total int64
	for _, p := range paths {
		in, err := openLog(p, len(paths) > 1)
		if err != nil {
			return nil, fmt.Errorf("log %s: %w", p, err)
		}
		files = append(files, in)
		total += in.size
	}
	slices.SortStableFunc(files, func(a, b *logInput) int { return a.first.Compare(b.first) })
	lr.meter = newMeter(total, progress)
	for _, f := range files {
		if err := lr.readFile(f); err != nil {
			return nil, err
		}
	}
	if lr.parsed == 0 {
		return nil, fmt.Errorf("%s: no line is a mongod JSON log entry (%d lines read): capture needs MongoDB 4.4 or later's structured log", strings.Join(paths, ", "), lr.lines)
	}
	lr.meter.done(lr.lines)
	lr.finish()
	return lr.p.Source("log "+strings.Join(paths, ", "), "a log holds the operations slower than slowms (100 ms by default): the mix of slow operations, not the rate, unless the server ran with slowms 0 (then give the rate with --rate, or read the profiler)"), nil
}

type logReader struct {
	p          Profiled
	parsed     int
	lines      int
	statements int     // per-statement update and delete entries
	writeCmds  []entry // update and delete commands, used when no statement was logged
	heldBack   int     // update and delete commands not kept: the log holds statements
	meter      *meter
}

// readFile streams one log through the parsers (parse.go): memory holds a
// few batches of lines, whatever the file's size.
func (lr *logReader) readFile(in *logInput) error {
	path := in.path
	f, err := in.open()
	if err != nil {
		return fmt.Errorf("log %s: %w", path, err)
	}
	defer f.Close()
	counted := &countingReader{r: f} // the file's bytes, for the progress line
	lr.meter.file(counted)
	unzipped := &countingReader{r: maybeGzip(counted)}
	lines, garbage := lr.lines, lr.p.Tally.Garbage
	err = parseLines(unzipped, &lr.p.Tally.TooLong, func(l parsedLine) {
		lr.lines++
		lr.line(l)
		lr.meter.tick(lr.lines)
	})
	if lost, ok := gzipLost("log "+path, err, lr.lines-lines, lr.p.Tally.Garbage-garbage); ok {
		// Cut short, damaged or followed by stray bytes: what was read
		// is kept, and a lost: line says what was not (gzip.go).
		lr.p.Tally.Lost = append(lr.p.Tally.Lost, lost)
		return nil
	}
	if err != nil {
		return fmt.Errorf("log %s: line %d: %w", path, lr.lines+1, err)
	}
	return nil
}

// line takes one parsed line, in the file's order.
func (lr *logReader) line(l parsedLine) {
	switch l.kind {
	case lineEmpty, lineOther:
	case lineGarbage:
		lr.p.Tally.Garbage++
		return
	case lineTruncated:
		// MongoDB 8.0 cuts a long command silently: attr.command is
		// then partial, with no $truncated inside (a $match that lost
		// its predicate reads as a full scan), and only the top-level
		// "truncated" and "size" beside attr say so.
		lr.p.Tally.Read++
		lr.p.Tally.Truncated++
	case lineSlow:
		lr.entry(l)
	}
	if l.kind != lineEmpty {
		lr.parsed++
	}
}

// entry takes one Slow query line, read by logEntry.
func (lr *logReader) entry(l parsedLine) {
	switch {
	case l.writeCmd && lr.statements > 0:
		lr.heldBack++ // its statements are read: no need to keep it
	case l.writeCmd:
		lr.writeCmds = append(lr.writeCmds, l.e)
	default:
		if l.statement {
			lr.statements++
			lr.heldBack += len(lr.writeCmds)
			lr.writeCmds = nil
		}
		lr.p.add(l.doc, l.e.app, func() entry { return l.e })
	}
}

// logEntry reads a Slow query line's entry; its profiler-form document
// when it is read as it comes (an update or delete command waits to know
// whether the log holds its statements).
func logEntry(d bson.Raw) parsedLine {
	e := readEntry(doc(d.Lookup("attr")), d.Lookup("t"), "type", "durationMillis")
	e.conn, _ = d.Lookup("ctx").StringValueOK()
	e.app, _ = d.Lookup("attr", "appName").StringValueOK()
	first := ""
	if els, err := e.cmd.Elements(); err == nil && len(els) > 0 {
		first = els[0].Key()
	}
	l := parsedLine{kind: lineSlow}
	switch {
	case first == "getMore":
		e.opType = "getmore"
	case e.opType == "update" || e.opType == "remove":
		l.statement = true
	case first == "update" || first == "delete":
		l.writeCmd, l.e = true, e
		return l
	}
	l.e, l.doc = e, entryDoc(e)
	if e.conn == "" {
		// The profiler's form has no appName then; what Add would read.
		l.e.app = ""
	}
	return l
}

// finish reads the update and delete commands' statements when the log
// held no statement of its own (a command is logged beside its slow
// statements; reading both would count them twice).
func (lr *logReader) finish() {
	if lr.statements > 0 {
		for range lr.heldBack + len(lr.writeCmds) {
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
// profiler, its exports and the log (nil when e has no command).
func entryDoc(e entry) bson.Raw {
	if e.cmd == nil {
		return nil
	}
	idx, d := bsoncore.AppendDocumentStart(make([]byte, 0, 160+len(e.cmd)+len(e.origin)))
	d = bsoncore.AppendStringElement(d, "op", e.opType)
	d = bsoncore.AppendStringElement(d, "ns", e.ns)
	d = bsoncore.AppendDocumentElement(d, "command", e.cmd)
	d = bsoncore.AppendInt64Element(d, "nreturned", e.returned)
	d = bsoncore.AppendInt64Element(d, "ninserted", e.inserted)
	d = bsoncore.AppendInt64Element(d, "millis", e.millis)
	d = bsoncore.AppendDateTimeElement(d, "ts", int64(bson.NewDateTimeFromTime(e.ts)))
	d = bsoncore.AppendStringElement(d, "planSummary", e.plan)
	if e.origin != nil {
		d = bsoncore.AppendDocumentElement(d, "originatingCommand", e.origin)
	}
	if e.conn != "" {
		d = bsoncore.AppendStringElement(d, "client", e.conn)
		d = bsoncore.AppendStringElement(d, "appName", e.app)
	}
	d, _ = bsoncore.AppendDocumentEnd(d, idx)
	return d
}
