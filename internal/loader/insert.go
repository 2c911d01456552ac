package loader

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/workload"
)

// Writer is the driver's side of a load's inserts; internal/mongodb's
// Client implements it with driver calls only.
type Writer interface {
	// LoadWriteConcern encodes the {writeConcern: ...} element of a load's
	// commands from wc, or from the connection's settings when wc is nil;
	// nil when neither says (the server's default).
	LoadWriteConcern(wc *config.WriteConcern) []byte
	// RunWrite sends the write command cmd to database's primary. When the
	// server refused only some of its documents (write errors and no write
	// concern error), it calls onWriteError with each refused document's
	// index in the command, the server's code and message, and the whole
	// refusal, and returns the first error onWriteError returns, else nil.
	// Any other failure it returns as the driver reports it.
	RunWrite(ctx context.Context, database string, cmd []byte, onWriteError func(index, code int, msg string, refusal error) error) error
}

// CommandInserter inserts a load's batches with the load's own write
// concern; it implements Inserter.
//
// It builds the insert command itself, the batch's documents copied once
// into the command's documents array, instead of insertMany: insertMany
// decodes every document's _id and copies it through the codec machinery,
// which made up about a third of the client's CPU per loaded document.
// A load needs neither insertMany's returned ids nor its retry (the loader
// retries and redoes chunks itself).
type CommandInserter struct {
	w    Writer
	wc   []byte // the writeConcern element of every command, nil for the server's default
	bufs sync.Pool
}

// maxCommand is the size a command's body may reach: the server takes 16
// MiB plus some room for the command itself; a batch beyond it is sent as
// several commands.
const maxCommand = 16*1024*1024 - 64*1024

// duplicateKey is the server's code for a document refused because its _id
// or a unique index's key is taken.
const duplicateKey = 11000

// NewInserter returns an inserter for a load through w; a nil write
// concern keeps the connection's (the workload's writeConcern, or w and
// journal in the URI).
func NewInserter(w Writer, wc *config.WriteConcern) *CommandInserter {
	ins := &CommandInserter{w: w, wc: w.LoadWriteConcern(wc)}
	ins.bufs.New = func() any { b := make([]byte, 0, 1<<20); return &b }
	return ins
}

// ParseWriteConcern reads --load-write-concern: a number of members (1 or
// more) or a tag such as majority. Unacknowledged writes (0) are refused:
// a load that cannot know what was written cannot be resumed.
func ParseWriteConcern(v string) (*config.WriteConcern, error) {
	if v == "" {
		return nil, nil
	}
	if n, err := strconv.Atoi(v); err == nil && n < 1 {
		return nil, &config.Error{Kind: config.Invalid, Field: "--load-write-concern",
			Msg: fmt.Sprintf("w %d cannot be used for a load: unacknowledged inserts cannot be resumed; use 1, majority or a number of members", n)}
	}
	if err := config.CheckW(v); err != nil {
		return nil, &config.Error{Kind: config.Invalid, Field: "--load-write-concern", Msg: err.Error()}
	}
	return &config.WriteConcern{W: v}, nil
}

// InsertDocs implements Inserter: one unordered insert command (or more,
// when the batch passes the command size limit).
func (ins *CommandInserter) InsertDocs(ctx context.Context, col *workload.Collection, docs [][]byte) error {
	bp := ins.bufs.Get().(*[]byte)
	defer ins.bufs.Put(bp)
	var dup *DuplicateError
	onWriteError := func(index, code int, msg string, refusal error) error {
		if code != duplicateKey {
			return fmt.Errorf("insert into %s: document %d of the batch: %w", col.Namespace(), index, refusal)
		}
		if dup == nil {
			dup = &DuplicateError{First: serverLine(msg)}
		}
		dup.Count++
		return nil
	}
	for len(docs) > 0 {
		var n int
		*bp, n = ins.command((*bp)[:0], col.Name, docs)
		if err := ins.w.RunWrite(ctx, col.Database, *bp, onWriteError); err != nil {
			return err
		}
		docs = docs[n:]
	}
	if dup != nil {
		return dup
	}
	return nil
}

// command appends {insert: coll, documents: [...], ordered: false,
// writeConcern} to dst with as many documents as fit, at least one, and
// says how many.
func (ins *CommandInserter) command(dst []byte, coll string, docs [][]byte) ([]byte, int) {
	start, dst := bsoncore.AppendDocumentStart(dst)
	dst = bsoncore.AppendStringElement(dst, "insert", coll)
	dst = append(dst, byte(bson.TypeArray))
	dst = append(dst, "documents\x00"...)
	arr := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	n := 0
	for _, d := range docs {
		if n > 0 && len(dst)-int(start)+len(d)+32 > maxCommand {
			break
		}
		dst = append(dst, byte(bson.TypeEmbeddedDocument))
		dst = append(strconv.AppendInt(dst, int64(n), 10), 0)
		dst = append(dst, d...)
		n++
	}
	dst = append(dst, 0)
	binary.LittleEndian.PutUint32(dst[arr:], uint32(len(dst)-arr))
	dst = bsoncore.AppendBooleanElement(dst, "ordered", false)
	dst = append(dst, ins.wc...)
	dst, _ = bsoncore.AppendDocumentEnd(dst, start)
	return dst, n
}

// serverLine is the first line of a server's message, cut at 200 bytes: a
// duplicate-key message quotes the key, which may be long.
func serverLine(msg string) string {
	s := firstLine(errors.New(msg))
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}
