package mongodb

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/mongoload/mongoload/internal/metrics"
)

// replay sends a captured command as it is, on the operation's database.
// A find or an aggregate is read to its end through the replay's own
// cursor (its getMores are this cursor's, not the source's); a write's
// write errors are its error, as the driver's own write calls make them.
// A read that fails on the network is sent once more, as the application's
// driver would (retryable reads, on by default); a write is not, since the
// command carries no transaction number that would make a second send safe.
func (e *Executor) replay(ctx context.Context, cmd bson.Raw) (metrics.Docs, error) {
	name := ""
	if els, err := cmd.Elements(); err == nil && len(els) > 0 {
		name = els[0].Key()
	}
	if e.op.AbortWrites && replayWrites[name] {
		return e.replayAborted(ctx, name, cmd)
	}
	d, err := e.replayOnce(ctx, name, cmd)
	if err != nil && replayReads[name] && ctx.Err() == nil {
		if c := Classify(err); c == ClassNetwork || c == ClassPoolCleared {
			d, err = e.replayOnce(ctx, name, cmd)
		}
	}
	return d, err
}

// replayReads are the commands a driver retries as retryable reads.
var replayReads = map[string]bool{"find": true, "aggregate": true, "count": true, "distinct": true}

func (e *Executor) replayOnce(ctx context.Context, name string, cmd bson.Raw) (metrics.Docs, error) {
	db := e.coll.Database()
	switch name {
	case "find", "aggregate":
		cur, err := db.RunCommandCursor(ctx, cmd)
		return drain(ctx, cur, err)
	}
	reply, err := db.RunCommand(ctx, cmd).Raw()
	if err != nil {
		return metrics.Docs{}, err
	}
	n := int64(Number(reply.Lookup("n")))
	var d metrics.Docs
	switch name {
	case "insert":
		d.Inserted = n
	case "update":
		up, _ := reply.Lookup("upserted").ArrayOK()
		vals, _ := up.Values()
		d = shaped(metrics.Docs{Matched: n - int64(len(vals)), Modified: int64(Number(reply.Lookup("nModified"))), Upserted: int64(len(vals))}, n)
	case "delete":
		d = shaped(metrics.Docs{Deleted: n}, n)
	case "count":
		d = shaped(metrics.Docs{Matched: n}, n)
	case "findAndModify", "findandmodify":
		found := int64(0)
		if v := reply.Lookup("value"); v.Type == bson.TypeEmbeddedDocument {
			found = 1
		}
		d = shaped(metrics.Docs{Returned: found}, found)
	}
	return d, writeErrors(reply)
}

// writeErrors turns a write command's writeErrors into the error the
// driver's write calls return, so that a duplicate key is classified as one.
func writeErrors(reply bson.Raw) error {
	arr, ok := reply.Lookup("writeErrors").ArrayOK()
	if !ok {
		return nil
	}
	vals, _ := arr.Values()
	if len(vals) == 0 {
		return nil
	}
	var we mongo.WriteException
	for _, v := range vals {
		d, _ := v.DocumentOK()
		msg, _ := d.Lookup("errmsg").StringValueOK()
		we.WriteErrors = append(we.WriteErrors, mongo.WriteError{Index: int(Number(d.Lookup("index"))), Code: int(Number(d.Lookup("code"))), Message: msg})
	}
	if len(we.WriteErrors) == 0 {
		return fmt.Errorf("write errors: %s", arr)
	}
	return we
}
