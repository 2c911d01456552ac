package mongodb

import (
	"context"
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/mongoload/mongoload/internal/generate"
	"github.com/mongoload/mongoload/internal/workload"
)

// SetupComment marks the reads setup makes of the workload's collections
// (the key probe), so that a profiler's reader (capture) can tell them
// from the application's.
const SetupComment = "mongoload: setup"

// probeWindow is how many consecutive keys one probe asks for: a gap this
// long (documents deleted, inserts that failed) reads as the end of the keys.
const probeWindow = 64

// keysHeld is where the next key of col must start, read from what the
// collection holds rather than from the count recorded in mongoload_meta:
// a run killed (kill -9, a second Ctrl-C, a frozen server) inserted keys
// past the record it never wrote, and the next run's inserts would
// collide with them (DuplicateKey). It gallops over windows of keys from
// the record up, then bisects: O(log n) indexed queries. Only a key field
// under a unique index (_id, or a unique index's only key) can collide, so
// other collections keep the record.
func (cl *Client) keysHeld(ctx context.Context, col *workload.Collection, recorded int64) (int64, error) {
	f, ok := uniqueKeyField(col)
	if !ok {
		return recorded, nil
	}
	coll := cl.c.Database(col.Database).Collection(col.Name)
	occupied := func(from int64) (bool, error) {
		keys := make(bson.A, 0, probeWindow)
		for k := from; k < from+probeWindow; k++ {
			keys = append(keys, f.Value(k))
		}
		filter := bson.D{{Key: f.Name, Value: bson.D{{Key: "$in", Value: keys}}}}
		err := coll.FindOne(ctx, filter, options.FindOne().SetProjection(bson.D{{Key: "_id", Value: 1}}).SetComment(SetupComment)).Err()
		if errors.Is(err, mongo.ErrNoDocuments) {
			return false, nil
		}
		return err == nil, err
	}
	lo := recorded
	if busy, err := occupied(lo); err != nil || !busy {
		return recorded, probeErr(col, err)
	}
	// Invariant: the window at lo holds a key, the window at hi none.
	step := int64(probeWindow)
	hi := lo + step
	for {
		busy, err := occupied(hi)
		if err != nil {
			return recorded, probeErr(col, err)
		}
		if !busy {
			break
		}
		lo, step = hi, step*2
		hi = lo + step
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		busy, err := occupied(mid)
		if err != nil {
			return recorded, probeErr(col, err)
		}
		if busy {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi, nil // key lo is held (its window is, the next one is not)
}

func probeErr(col *workload.Collection, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("look for keys of %s past its record: %w", col.Namespace(), err)
}

// uniqueKeyField is col's key field when a unique index covers it alone.
func uniqueKeyField(col *workload.Collection) (generate.KeyField, bool) {
	if col.Doc == nil {
		return generate.KeyField{}, false
	}
	f, ok := col.Doc.KeyField()
	if !ok {
		return f, false
	}
	if f.Name == "_id" {
		return f, true
	}
	for _, ix := range col.Indexes {
		els, err := bson.Raw(ix.Keys).Elements()
		if ix.Unique && err == nil && len(els) == 1 && els[0].Key() == f.Name {
			return f, true
		}
	}
	return f, false
}

// keysNotice says why the key count differs from the record.
func keysNotice(col *workload.Collection, recorded, held int64) string {
	return fmt.Sprintf("%s holds keys up to %d, past the %d mongoload recorded (a run ended without recording its inserts: killed, stopped twice, or its server froze): new keys start after the last one found", col.Namespace(), held-1, recorded)
}
