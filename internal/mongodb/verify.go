package mongodb

import (
	"context"
	"errors"
	"fmt"
	"math"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/mongoload/mongoload/internal/verify"
)

// PaymentsFigures is what ReadPayments found.
type PaymentsFigures struct {
	*verify.Payments
	// Snapshot is true when every read saw the same snapshot of the data
	// (a snapshot session); false when the server refused one, and the
	// reads are consistent only if nothing writes during them.
	Snapshot bool
	// History counts the ledger records that no transaction wrote (seeded
	// history), left out of the comparison.
	History int64
}

// ReadPayments reads the payments workload's figures from database (cards,
// cardholder and merchant counters, and the live ledger records grouped by
// card and by merchant) into a verify.Payments, inside one snapshot when
// the server supports snapshot reads.
func (cl *Client) ReadPayments(ctx context.Context, database string, s verify.Schema) (*PaymentsFigures, error) {
	sess, err := cl.c.StartSession(options.Session().SetSnapshot(true))
	if err == nil {
		defer sess.EndSession(ctx)
		f, err := cl.readPayments(mongo.NewSessionContext(ctx, sess), database, s)
		var se mongo.ServerError
		if err == nil || !errors.As(err, &se) {
			if f != nil {
				f.Snapshot = true
			}
			return f, err
		}
		// The server refused a snapshot (a standalone, an old version):
		// read without one.
	}
	return cl.readPayments(ctx, database, s)
}

func (cl *Client) readPayments(ctx context.Context, database string, s verify.Schema) (*PaymentsFigures, error) {
	db := cl.c.Database(database)
	ledger := db.Collection(s.Ledger)
	live := bson.D{{Key: s.LedgerSource, Value: s.LiveSource}}
	byCard, err := groupTotals(ctx, ledger, live, s.LedgerCard, 1, s.LedgerAmount)
	if err != nil {
		return nil, err
	}
	byMerchant, err := groupTotals(ctx, ledger, live, s.LedgerMerchant, 1, s.LedgerAmount)
	if err != nil {
		return nil, err
	}
	f := &PaymentsFigures{Payments: verify.NewPayments(byCard, byMerchant)}
	f.History, err = ledger.CountDocuments(ctx, bson.D{{Key: s.LedgerSource, Value: bson.D{{Key: "$ne", Value: s.LiveSource}}}})
	if err != nil {
		return nil, fmt.Errorf("count %s.%s: %w", database, s.Ledger, err)
	}
	err = scan(ctx, db.Collection(s.Cards), []string{s.CardID, s.Balance, s.InitialBalance}, func(v []int64) {
		f.Card(v[0], v[1], v[2])
	})
	if err != nil {
		return nil, err
	}
	err = scan(ctx, db.Collection(s.CardCounters), []string{s.CounterCard, s.CounterCount, s.CounterAmount}, func(v []int64) {
		f.CardCounter(v[0], verify.Totals{Count: v[1], Amount: v[2]})
	})
	if err != nil {
		return nil, err
	}
	byBucket, err := groupTotals(ctx, db.Collection(s.MerchantCounters), bson.D{}, s.CounterMerchant, "$"+s.CounterCount, s.CounterAmount)
	if err != nil {
		return nil, err
	}
	for mid, t := range byBucket {
		f.Merchant(mid, t)
	}
	return f, nil
}

// groupTotals sums, per value of the field key, count (1 to count the
// documents, or "$field") and the field amount over the documents of c
// matching match.
func groupTotals(ctx context.Context, c *mongo.Collection, match bson.D, key string, count any, amount string) (map[int64]verify.Totals, error) {
	// $sum skips what is not a number: count those values, so that a
	// string amount is an error rather than a silent zero.
	notNumber := func(field string) bson.D {
		return bson.D{{Key: "$sum", Value: bson.D{{Key: "$cond", Value: bson.A{bson.D{{Key: "$isNumber", Value: field}}, 0, 1}}}}}
	}
	group := bson.D{
		{Key: "_id", Value: "$" + key},
		{Key: "n", Value: bson.D{{Key: "$sum", Value: count}}},
		{Key: "a", Value: bson.D{{Key: "$sum", Value: "$" + amount}}},
		{Key: "badA", Value: notNumber("$" + amount)},
	}
	numbers := amount
	if field, ok := count.(string); ok {
		group = append(group, bson.E{Key: "badN", Value: notNumber(field)})
		numbers += " or " + field[1:]
	}
	pipeline := bson.A{bson.D{{Key: "$match", Value: match}}, bson.D{{Key: "$group", Value: group}}}
	ns := c.Database().Name() + "." + c.Name()
	cur, err := c.Aggregate(ctx, pipeline, options.Aggregate().SetAllowDiskUse(true))
	if err != nil {
		return nil, fmt.Errorf("group %s by %s: %w", ns, key, err)
	}
	defer cur.Close(ctx)
	out := map[int64]verify.Totals{}
	for cur.Next(ctx) {
		v, err := integers(cur.Current, []string{"_id", "n", "a", "badA"})
		if err != nil {
			return nil, fmt.Errorf("group %s by %s: %w (every document needs integer %s and %s)", ns, key, err, key, amount)
		}
		bad := v[3]
		if n, ok := cur.Current.Lookup("badN").AsInt64OK(); ok {
			bad += n
		}
		if bad > 0 {
			return nil, fmt.Errorf("%s: %d documents of %s %v have a %s that is not a number: the invariants compare integers (cents, counts)",
				ns, bad, key, cur.Current.Lookup("_id"), numbers)
		}
		out[v[0]] = verify.Totals{Count: v[1], Amount: v[2]}
	}
	if err := cur.Err(); err != nil {
		return nil, fmt.Errorf("group %s by %s: %w", ns, key, err)
	}
	return out, nil
}

// scan calls fn with the integer fields of every document of c.
func scan(ctx context.Context, c *mongo.Collection, fields []string, fn func([]int64)) error {
	proj := bson.D{{Key: "_id", Value: 0}}
	for _, f := range fields {
		proj = append(proj, bson.E{Key: f, Value: 1})
	}
	ns := c.Database().Name() + "." + c.Name()
	cur, err := c.Find(ctx, bson.D{}, options.Find().SetProjection(proj).SetBatchSize(10000))
	if err != nil {
		return fmt.Errorf("read %s: %w", ns, err)
	}
	defer cur.Close(ctx)
	for cur.Next(ctx) {
		v, err := integers(cur.Current, fields)
		if err != nil {
			return fmt.Errorf("read %s: %w", ns, err)
		}
		fn(v)
	}
	if err := cur.Err(); err != nil {
		return fmt.Errorf("read %s: %w", ns, err)
	}
	return nil
}

// integers reads the named fields of doc as integers: int32, int64, or a
// double that holds a whole number.
func integers(doc bson.Raw, fields []string) ([]int64, error) {
	out := make([]int64, len(fields))
	for i, f := range fields {
		v, err := doc.LookupErr(f)
		if err != nil {
			return nil, fmt.Errorf("a document has no %s: %s", f, clip(doc))
		}
		switch v.Type {
		case bson.TypeInt32:
			out[i] = int64(v.Int32())
		case bson.TypeInt64:
			out[i] = v.Int64()
		case bson.TypeDouble:
			d := v.Double()
			if d != math.Trunc(d) || math.Abs(d) > 1<<53 {
				return nil, fmt.Errorf("%s is %v, not a whole number: %s", f, d, clip(doc))
			}
			out[i] = int64(d)
		default:
			return nil, fmt.Errorf("%s is a %s, not an integer: %s", f, v.Type, clip(doc))
		}
	}
	return out, nil
}

// clip shows a document in a message, shortened.
func clip(doc bson.Raw) string {
	s := doc.String()
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}
