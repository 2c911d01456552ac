package verify

import (
	"context"
	"errors"
	"fmt"
	"math"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Reader is the driver's side of a check: it reads documents and hands
// them over as BSON. internal/mongodb's Client implements it with driver
// calls only; what to read and how to read a figure out of a document is
// decided here.
type Reader interface {
	// InSnapshot calls read with a context in which every read sees one
	// snapshot of the data, and reports true. When the server refuses a
	// snapshot (no session, or read fails with a server error: a
	// standalone, an old version) it calls read again with ctx and
	// reports false.
	InSnapshot(ctx context.Context, read func(context.Context) error) (bool, error)
	// AggregateEach runs pipeline on database.collection, with disk use
	// allowed, and calls each with every document it returns; an error of
	// each ends it and is returned (wrapped or not).
	AggregateEach(ctx context.Context, database, collection string, pipeline any, each func(bson.Raw) error) error
	// FindEach calls each with every document of database.collection,
	// with only the fields of projection; an error of each ends it and is
	// returned (wrapped or not).
	FindEach(ctx context.Context, database, collection string, projection any, each func(bson.Raw) error) error
	// CountDocuments counts the documents of database.collection that
	// filter matches.
	CountDocuments(ctx context.Context, database, collection string, filter any) (int64, error)
}

// Figures is what ReadPayments found.
type Figures struct {
	*Payments
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
// card and by merchant) into a Payments, inside one snapshot when the
// server supports snapshot reads.
func ReadPayments(ctx context.Context, r Reader, database string, s Schema) (*Figures, error) {
	var f *Figures
	snapshot, err := r.InSnapshot(ctx, func(ctx context.Context) error {
		var err error
		f, err = readPayments(ctx, r, database, s)
		return err
	})
	if f != nil {
		f.Snapshot = snapshot
	}
	return f, err
}

func readPayments(ctx context.Context, r Reader, database string, s Schema) (*Figures, error) {
	live := bson.D{{Key: s.LedgerSource, Value: s.LiveSource}}
	byCard, err := groupTotals(ctx, r, database, s.Ledger, live, s.LedgerCard, 1, s.LedgerAmount)
	if err != nil {
		return nil, err
	}
	byMerchant, err := groupTotals(ctx, r, database, s.Ledger, live, s.LedgerMerchant, 1, s.LedgerAmount)
	if err != nil {
		return nil, err
	}
	f := &Figures{Payments: NewPayments(byCard, byMerchant)}
	f.History, err = r.CountDocuments(ctx, database, s.Ledger, bson.D{{Key: s.LedgerSource, Value: bson.D{{Key: "$ne", Value: s.LiveSource}}}})
	if err != nil {
		return nil, fmt.Errorf("count %s.%s: %w", database, s.Ledger, err)
	}
	err = scan(ctx, r, database, s.Cards, []string{s.CardID, s.Balance, s.InitialBalance}, func(v []int64) {
		f.Card(v[0], v[1], v[2])
	})
	if err != nil {
		return nil, err
	}
	err = scan(ctx, r, database, s.CardCounters, []string{s.CounterCard, s.CounterCount, s.CounterAmount}, func(v []int64) {
		f.CardCounter(v[0], Totals{Count: v[1], Amount: v[2]})
	})
	if err != nil {
		return nil, err
	}
	byBucket, err := groupTotals(ctx, r, database, s.MerchantCounters, bson.D{}, s.CounterMerchant, "$"+s.CounterCount, s.CounterAmount)
	if err != nil {
		return nil, err
	}
	for mid, t := range byBucket {
		f.Merchant(mid, t)
	}
	return f, nil
}

// rowError is a document's own fault, said in full: it is not wrapped in
// the reading's "group ..." context.
type rowError struct{ err error }

func (e rowError) Error() string { return e.err.Error() }

// groupTotals sums, per value of the field key, count (1 to count the
// documents, or "$field") and the field amount over the documents of
// database.collection matching match.
func groupTotals(ctx context.Context, r Reader, database, collection string, match bson.D, key string, count any, amount string) (map[int64]Totals, error) {
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
	ns := database + "." + collection
	out := map[int64]Totals{}
	err := r.AggregateEach(ctx, database, collection, pipeline, func(doc bson.Raw) error {
		v, err := integers(doc, []string{"_id", "n", "a", "badA"})
		if err != nil {
			return rowError{fmt.Errorf("group %s by %s: %w (every document needs integer %s and %s)", ns, key, err, key, amount)}
		}
		bad := v[3]
		if n, ok := doc.Lookup("badN").AsInt64OK(); ok {
			bad += n
		}
		if bad > 0 {
			return rowError{fmt.Errorf("%s: %d documents of %s %v have a %s that is not a number: the invariants compare integers (cents, counts)",
				ns, bad, key, doc.Lookup("_id"), numbers)}
		}
		out[v[0]] = Totals{Count: v[1], Amount: v[2]}
		return nil
	})
	var re rowError
	switch {
	case errors.As(err, &re):
		return nil, re.err
	case err != nil:
		return nil, fmt.Errorf("group %s by %s: %w", ns, key, err)
	}
	return out, nil
}

// scan calls fn with the integer fields of every document of
// database.collection.
func scan(ctx context.Context, r Reader, database, collection string, fields []string, fn func([]int64)) error {
	proj := bson.D{{Key: "_id", Value: 0}}
	for _, f := range fields {
		proj = append(proj, bson.E{Key: f, Value: 1})
	}
	err := r.FindEach(ctx, database, collection, proj, func(doc bson.Raw) error {
		v, err := integers(doc, fields)
		if err != nil {
			return err
		}
		fn(v)
		return nil
	})
	if err != nil {
		return fmt.Errorf("read %s.%s: %w", database, collection, err)
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
