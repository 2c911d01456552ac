package source

import (
	"bytes"
	"io"
	"runtime"
	"strings"
	"sync"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/mongodb"
)

// A log is read by one goroutine, cut into batches of lines, parsed by as
// many goroutines as there are cores, and handed on in the file's order:
// the model is built in one order whatever the parallelism, so the same
// log gives the same file. Memory holds a few batches, not the log.
const (
	batchLines = 1024
	batchBytes = 1 << 20
)

type lineKind uint8

const (
	lineEmpty     lineKind = iota
	lineGarbage            // not JSON
	lineOther              // a log entry, not a slow operation
	lineTruncated          // a slow operation whose command the server cut (8.0)
	lineSlow               // a slow operation: doc holds it
)

type parsedLine struct {
	kind lineKind
	doc  bson.Raw // the entry in the profiler's form
	e    entry
	// statement: an update or remove statement's entry; writeCmd: an
	// update or delete command's (logs.go).
	statement, writeCmd bool
}

type batch struct {
	text  []byte // the lines, each ending at an offset of ends
	ends  []int
	lines []parsedLine
	done  chan struct{}
}

// parseLines calls fn with every line of r, parsed, in order. *long counts
// the lines over maxLine.
func parseLines(r io.Reader, long *int, fn func(parsedLine)) error {
	workers := max(runtime.GOMAXPROCS(0), 1)
	todo := make(chan *batch, workers)
	ordered := make(chan *batch, 2*workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range todo {
				b.parse()
				close(b.done)
			}
		}()
	}
	var readErr error
	go func() {
		defer close(ordered)
		defer close(todo)
		b := newBatch()
		send := func() {
			ordered <- b
			todo <- b
			b = newBatch()
		}
		readErr = eachLine(r, long, func(line []byte) error {
			b.text = append(b.text, line...)
			b.ends = append(b.ends, len(b.text))
			if len(b.ends) >= batchLines || len(b.text) >= batchBytes {
				send()
			}
			return nil
		})
		if len(b.ends) > 0 {
			send()
		}
	}()
	for b := range ordered {
		<-b.done
		for _, l := range b.lines {
			fn(l)
		}
	}
	wg.Wait()
	return readErr
}

func newBatch() *batch {
	return &batch{done: make(chan struct{}), text: make([]byte, 0, batchBytes+64<<10), ends: make([]int, 0, batchLines)}
}

// parse reads every line of the batch: only the slow operations' lines
// become documents.
func (b *batch) parse() {
	b.lines = make([]parsedLine, len(b.ends))
	start := 0
	for i, end := range b.ends {
		b.lines[i] = parseLogLine(b.text[start:end])
		start = end
	}
	b.text = nil
}

// logFields are the fields of a log line capture reads (logs.go): the
// rest of a slow query's line (locks, storage, flow control, remote) is
// passed over unconverted.
var logFields = fields{"t": nil, "ctx": nil, "msg": nil, "id": nil, "truncated": nil, "attr": fields{
	"type": nil, "ns": nil, "appName": nil, "command": nil, "originatingCommand": nil, "nreturned": nil,
	"ninserted": nil, "durationMillis": nil, "planSummary": nil}}

// otherFields: a line that cannot be a slow query's is only checked.
var otherFields = fields{"msg": nil, "id": nil}

func parseLogLine(line []byte) parsedLine {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return parsedLine{kind: lineEmpty}
	}
	only := logFields
	// "Slow query", "slow query" or its id: else not a slow query's line.
	if !bytes.Contains(line, []byte("51803")) && !bytes.Contains(line, []byte("low query")) {
		only = otherFields
	}
	d, err := parseLineOnly(make([]byte, 0, len(line)), line, only) // its own: an Op keeps parts of it
	if err != nil {
		return parsedLine{kind: lineGarbage}
	}
	doc := bson.Raw(d)
	// "slow query" in 4.3 and early 4.4, "Slow query" after; id 51803 in all.
	if msg, _ := doc.Lookup("msg").StringValueOK(); !strings.EqualFold(msg, "Slow query") && mongodb.Number(doc.Lookup("id")) != 51803 {
		return parsedLine{kind: lineOther}
	}
	if doc.Lookup("truncated").Type != 0 {
		return parsedLine{kind: lineTruncated}
	}
	return logEntry(doc)
}
