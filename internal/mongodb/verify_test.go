package mongodb

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/verify"
)

// The client is the driver's side of verify.
var _ verify.Reader = (*Client)(nil)

// TestReadPayments reads a small payments database written by hand: the
// integer types a server may hand back (int32, int64, whole doubles), a
// history record left out, merchants summed over their buckets; then a
// corrupted balance breaks the debits invariant, and a record without an
// amount is refused with a message that names the field.
func TestReadPayments(t *testing.T) {
	cl := connectTest(t)
	ctx := context.Background()
	dbName := fmt.Sprintf("mltest_verify_%d", time.Now().UnixNano())
	db := cl.c.Database(dbName)
	t.Cleanup(func() { _ = db.Drop(context.Background()) })
	insert := func(coll string, docs ...bson.D) {
		t.Helper()
		for _, d := range docs {
			if _, err := db.Collection(coll).InsertOne(ctx, d); err != nil {
				t.Fatal(err)
			}
		}
	}
	type D = bson.D
	insert("cards",
		D{{Key: "card_id", Value: int64(0)}, {Key: "balance", Value: int64(700)}, {Key: "initial_balance", Value: int64(1000)}},
		D{{Key: "card_id", Value: int32(1)}, {Key: "balance", Value: int32(1000)}, {Key: "initial_balance", Value: int32(1000)}},
		D{{Key: "card_id", Value: int64(2)}, {Key: "balance", Value: 900.0}, {Key: "initial_balance", Value: int64(1000)}})
	insert("ledger",
		D{{Key: "source", Value: "authorize"}, {Key: "cardId", Value: int64(0)}, {Key: "mid", Value: int64(5)}, {Key: "amount", Value: int64(300)}},
		D{{Key: "source", Value: "authorize"}, {Key: "cardId", Value: int64(2)}, {Key: "mid", Value: int64(5)}, {Key: "amount", Value: int64(100)}},
		D{{Key: "source", Value: "history"}, {Key: "cardId", Value: int64(1)}, {Key: "mid", Value: int64(6)}, {Key: "amount", Value: int64(999)}})
	insert("cardholder_counters",
		D{{Key: "card_id", Value: int64(0)}, {Key: "count", Value: int32(1)}, {Key: "amount", Value: int64(300)}},
		D{{Key: "card_id", Value: int64(1)}, {Key: "count", Value: int32(0)}, {Key: "amount", Value: int32(0)}},
		D{{Key: "card_id", Value: int64(2)}, {Key: "count", Value: int32(1)}, {Key: "amount", Value: int64(100)}})
	insert("merchant_counters",
		D{{Key: "mid", Value: int64(5)}, {Key: "bucket", Value: int32(0)}, {Key: "count", Value: int32(1)}, {Key: "amount", Value: int64(300)}},
		D{{Key: "mid", Value: int64(5)}, {Key: "bucket", Value: int32(3)}, {Key: "count", Value: int32(1)}, {Key: "amount", Value: int64(100)}},
		D{{Key: "mid", Value: int64(6)}, {Key: "bucket", Value: int32(0)}, {Key: "count", Value: int32(0)}, {Key: "amount", Value: int64(0)}})

	f, err := verify.ReadPayments(ctx, cl, dbName, verify.PaymentsSchema)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range f.Checks() {
		if !c.OK {
			t.Errorf("%s: %s %v", c.Name, c.Detail, c.Examples)
		}
	}
	if f.Cards() != 3 || f.History != 1 {
		t.Errorf("%d cards and %d history records, want 3 and 1", f.Cards(), f.History)
	}
	t.Logf("snapshot reads: %v", f.Snapshot)

	// A corrupted balance: card 1 lost 10 cents that no ledger record explains.
	if _, err := db.Collection("cards").UpdateOne(ctx, D{{Key: "card_id", Value: 1}}, D{{Key: "$inc", Value: D{{Key: "balance", Value: -10}}}}); err != nil {
		t.Fatal(err)
	}
	f, err = verify.ReadPayments(ctx, cl, dbName, verify.PaymentsSchema)
	if err != nil {
		t.Fatal(err)
	}
	checks := f.Checks()
	if checks[0].OK || !strings.Contains(strings.Join(checks[0].Examples, ";"), "card_id 1: debited 10, ledger 0") {
		t.Errorf("a corrupted balance passed: %+v", checks[0])
	}
	for _, c := range checks[1:] {
		if !c.OK {
			t.Errorf("%s failed too: %s", c.Name, c.Detail)
		}
	}

	// A live record without an amount cannot be compared: the read says which field.
	insert("ledger", D{{Key: "source", Value: "authorize"}, {Key: "cardId", Value: int64(0)}, {Key: "mid", Value: int64(5)}, {Key: "amount", Value: "300"}})
	if _, err := verify.ReadPayments(ctx, cl, dbName, verify.PaymentsSchema); err == nil || !strings.Contains(err.Error(), "amount") {
		t.Errorf("a string amount: %v", err)
	}
}
