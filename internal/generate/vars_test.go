package generate

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// TestLetAndVar: a let draws its values once; every var reading them gets the
// same value until the next draw, and negate gives the negative.
func TestLetAndVar(t *testing.T) {
	env := testEnv(Query)
	let, err := CompileLet(parse(t, `{card: {$gen: key}, amount: {$gen: long, min: 100, max: 200}}`), env)
	if err != nil {
		t.Fatal(err)
	}
	env.Vars = let.Names
	doc, err := CompileDocument(parse(t, `{c: {$var: card}, a: {$var: amount}, debit: {$gen: var, name: amount, negate: true}}`), env)
	if err != nil {
		t.Fatal(err)
	}
	st := NewState(1, 1)
	for i := 0; i < 50; i++ {
		let.Draw(st)
		a := bson.Raw(doc.Append(nil, st))
		b := bson.Raw(doc.Append(nil, st))
		if !bytesEqual(a, b) {
			t.Fatal("two reads of one draw differ")
		}
		amount, debit := a.Lookup("a").Int64(), a.Lookup("debit").Int64()
		if amount < 100 || amount > 200 || debit != -amount {
			t.Fatalf("amount %d, debit %d", amount, debit)
		}
	}
	// An unknown variable is named with the closest one.
	if _, err := CompileDocument(parse(t, `{a: {$var: amont}}`), env); err == nil || !contains(err.Error(), `did you mean "amount"`) {
		t.Fatalf("unknown var: %v", err)
	}
}

func bytesEqual(a, b []byte) bool { return string(a) == string(b) }

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}
