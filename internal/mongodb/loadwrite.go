package mongodb

import (
	"context"
	"errors"
	"strconv"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/mongo/readpref"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/connstring"

	"github.com/mongoload/mongoload/internal/config"
)

// The driver's side of a load's inserts (internal/loader.Writer): the
// loader builds the insert commands, the client sends them.

var onPrimary = options.RunCmd().SetReadPreference(readpref.Primary())

// LoadWriteConcern encodes the writeConcern element of a load's commands
// (loader.Writer); a nil wc keeps the connection's (the workload's
// writeConcern, or w and journal in the URI).
func (cl *Client) LoadWriteConcern(wc *config.WriteConcern) []byte {
	if wc == nil {
		wc = cl.conn.WriteConcern
	}
	return writeConcernElement(wc, cl.conn.URI)
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

// RunWrite sends the write command cmd to database's primary
// (loader.Writer). The driver turns a reply's writeErrors into a
// WriteException: when that is all that went wrong, each write error goes
// to onWriteError, and the first error it returns is RunWrite's.
func (cl *Client) RunWrite(ctx context.Context, database string, cmd []byte, onWriteError func(index, code int, msg string, refusal error) error) error {
	err := cl.c.Database(database).RunCommand(ctx, bson.Raw(cmd), onPrimary).Err()
	var we mongo.WriteException
	switch {
	case err == nil:
		return nil
	case errors.As(err, &we) && we.WriteConcernError == nil && len(we.WriteErrors) > 0:
		for _, e := range we.WriteErrors {
			if werr := onWriteError(e.Index, e.Code, e.Message, err); werr != nil {
				return werr
			}
		}
		return nil
	default:
		return err
	}
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
