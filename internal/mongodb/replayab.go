package mongodb

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"

	"github.com/mongoload/mongoload/internal/metrics"
)

// replayab.go: what ab needs of a replayed command besides its time: the
// documents a read returns (to compare both sides' results), and writes
// that change nothing (each in a transaction that is aborted).

// replayWrites are the commands a replay sends in an aborted transaction
// when asked (workload.Op.AbortWrites).
var replayWrites = map[string]bool{"insert": true, "update": true, "delete": true, "findAndModify": true, "findandmodify": true}

// replayOutcome sends a captured command as replay does and keeps its
// result: a find's or an aggregate's documents, a distinct's values (one
// document each, {v: value}), a count's or a write's counts.
func (e *Executor) replayOutcome(ctx context.Context, cmd bson.Raw) (Outcome, error) {
	name := ""
	if els, err := cmd.Elements(); err == nil && len(els) > 0 {
		name = els[0].Key()
	}
	db := e.coll.Database()
	switch {
	case name == "find" || name == "aggregate":
		cur, err := db.RunCommandCursor(ctx, cmd)
		return collect(ctx, cur, err)
	case name == "distinct":
		reply, err := db.RunCommand(ctx, cmd).Raw()
		if err != nil {
			return Outcome{}, err
		}
		arr, _ := reply.Lookup("values").ArrayOK()
		vals, _ := arr.Values()
		var out Outcome
		for _, v := range vals {
			out.Docs = append(out.Docs, bson.Raw(bsoncore.NewDocumentBuilder().AppendValue("v", bsoncore.Value{Type: bsoncore.Type(v.Type), Data: v.Value}).Build()))
		}
		out.Counts = metrics.Docs{Returned: int64(len(out.Docs))}
		return out, nil
	}
	d, err := e.replay(ctx, cmd)
	return Outcome{Counts: d}, err
}

// replayAborted sends a write inside a transaction of its own and aborts
// it: the server does the write's work (finds its documents, takes their
// locks, checks its indexes) and keeps none of it. Its latency includes
// the abort, one more round trip. A write concern belongs to the
// transaction, never to one of its commands: the captured one is left out.
func (e *Executor) replayAborted(ctx context.Context, name string, cmd bson.Raw) (metrics.Docs, error) {
	sess, err := e.coll.Database().Client().StartSession(noCausal)
	if err != nil {
		return metrics.Docs{}, err
	}
	defer sess.EndSession(context.WithoutCancel(ctx))
	if err := sess.StartTransaction(); err != nil {
		return metrics.Docs{}, err
	}
	d, err := e.replayOnce(mongo.NewSessionContext(ctx, sess), name, without(cmd, "writeConcern"))
	if abortErr := sess.AbortTransaction(context.WithoutCancel(ctx)); err == nil {
		err = abortErr
	}
	return d, err
}

// without is cmd less its field key.
func without(cmd bson.Raw, key string) bson.Raw {
	if cmd.Lookup(key).Type == 0 {
		return cmd
	}
	els, _ := cmd.Elements()
	idx, out := bsoncore.AppendDocumentStart(nil)
	for _, el := range els {
		if el.Key() != key {
			out = append(out, el...)
		}
	}
	out, _ = bsoncore.AppendDocumentEnd(out, idx)
	return out
}
