package mongodb

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/mongo/readpref"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/connstring"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/loader"
	"github.com/mongoload/mongoload/internal/workload"
)

// LoadWriter inserts a load's batches with the load's own write concern;
// it implements loader.Inserter.
//
// It sends the insert command itself, the batch's documents copied once
// into the command's documents array, instead of insertMany: insertMany
// decodes every document's _id and copies it through the codec machinery,
// which made up about a third of the client's CPU per loaded document.
// A load needs neither insertMany's returned ids nor its retry (the loader
// retries and redoes chunks itself).
type LoadWriter struct {
	cl      *Client
	wc      []byte // the writeConcern element of every command, nil for the server's default
	bufs    sync.Pool
	primary *options.RunCmdOptionsBuilder
}

// maxCommand is the size a command's body may reach: the server takes 16
// MiB plus some room for the command itself; a batch beyond it is sent as
// several commands.
const maxCommand = 16*1024*1024 - 64*1024

// ParseLoadWriteConcern reads --load-write-concern: a number of members
// (1 or more) or a tag such as majority. Unacknowledged writes (0) are
// refused: a load that cannot know what was written cannot be resumed.
func ParseLoadWriteConcern(v string) (*config.WriteConcern, error) {
	if v == "" {
		return nil, nil
	}
	if n, err := strconv.Atoi(v); err == nil && n < 1 {
		return nil, &config.Error{Kind: config.Invalid, Field: "--load-write-concern",
			Msg: fmt.Sprintf("w %d cannot be used for a load: unacknowledged inserts cannot be resumed; use 1, majority or a number of members", n)}
	}
	return &config.WriteConcern{W: v}, nil
}

// LoadWriter returns an inserter for a load; a nil write concern keeps the
// connection's (the workload's writeConcern, or w and journal in the URI).
func (cl *Client) LoadWriter(wc *config.WriteConcern) *LoadWriter {
	w := &LoadWriter{cl: cl, primary: options.RunCmd().SetReadPreference(readpref.Primary())}
	w.bufs.New = func() any { b := make([]byte, 0, 1<<20); return &b }
	if wc == nil {
		wc = cl.conn.WriteConcern
	}
	w.wc = writeConcernElement(wc, cl.conn.URI)
	return w
}

// writeConcernElement encodes {writeConcern: {w, j}} from the configured
// write concern, else from the URI's w and journal; nil when neither says.
func writeConcernElement(wc *config.WriteConcern, uri string) []byte {
	var w any
	var j *bool
	if wc != nil && (wc.W != "" || wc.J != nil) {
		if n, err := strconv.Atoi(wc.W); err == nil {
			w = int32(n)
		} else if wc.W != "" {
			w = wc.W
		}
		j = wc.J
	} else if cs, err := connstring.Parse(uri); err == nil {
		switch {
		case cs.WNumberSet:
			w = int32(cs.WNumber)
		case cs.WString != "":
			w = cs.WString
		}
		if cs.JSet {
			j = &cs.J
		}
	}
	if w == nil && j == nil {
		return nil
	}
	idx, doc := bsoncore.AppendDocumentStart(nil)
	switch v := w.(type) {
	case int32:
		doc = bsoncore.AppendInt32Element(doc, "w", v)
	case string:
		doc = bsoncore.AppendStringElement(doc, "w", v)
	}
	if j != nil {
		doc = bsoncore.AppendBooleanElement(doc, "j", *j)
	}
	doc, _ = bsoncore.AppendDocumentEnd(doc, idx)
	return bsoncore.AppendDocumentElement(nil, "writeConcern", doc)
}

// InsertDocs implements loader.Inserter: one unordered insert command (or
// more, when the batch passes the command size limit).
func (w *LoadWriter) InsertDocs(ctx context.Context, col *workload.Collection, docs [][]byte) error {
	db := w.cl.c.Database(col.Database)
	bp := w.bufs.Get().(*[]byte)
	defer w.bufs.Put(bp)
	var dup *loader.DuplicateError
	for len(docs) > 0 {
		var n int
		*bp, n = w.command((*bp)[:0], col.Name, docs)
		err := db.RunCommand(ctx, bson.Raw(*bp), w.primary).Err()
		var we mongo.WriteException
		switch {
		case err == nil:
		case errors.As(err, &we) && we.WriteConcernError == nil && len(we.WriteErrors) > 0:
			// The driver turns the reply's writeErrors into a WriteException.
			for _, e := range we.WriteErrors {
				if e.Code != 11000 {
					return fmt.Errorf("insert into %s: document %d of the batch: %w", col.Namespace(), e.Index, err)
				}
				if dup == nil {
					dup = &loader.DuplicateError{First: firstLine(errors.New(e.Message))}
				}
				dup.Count++
			}
		default:
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
func (w *LoadWriter) command(dst []byte, coll string, docs [][]byte) ([]byte, int) {
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
	dst = append(dst, w.wc...)
	dst, _ = bsoncore.AppendDocumentEnd(dst, start)
	return dst, n
}

// IsRetryableLoadError says whether a failed load insert is worth another
// try: the network, a timeout, an election.
func IsRetryableLoadError(err error) bool {
	switch Classify(err) {
	case ClassNetwork, ClassSelection, ClassTimeout:
		return true
	}
	var le mongo.LabeledError
	if errors.As(err, &le) && le.HasErrorLabel("RetryableWriteError") {
		return true
	}
	var ce mongo.CommandError
	return errors.As(err, &ce) && (ce.HasErrorLabel("RetryableWriteError") || ce.Code == 10107 || ce.Code == 11602 || ce.Code == 189 || ce.Code == 91)
}
