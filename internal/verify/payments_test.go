package verify

import (
	"strings"
	"testing"
)

// world is what a run left in the database, in the shape Payments is fed.
type world struct {
	byCard, byMerchant map[int64]Totals // the live ledger records, grouped
	cards              [][3]int64       // card_id, balance, initial_balance
	counters           map[int64]Totals // cardholder counters
	extraCounters      []int64          // card ids with a second counter
	merchants          map[int64]Totals // each merchant's buckets, summed
}

// consistent is a run that kept every invariant: card 0 paid 300 and 200 at
// merchant 7, card 1 paid 50 at merchant 8, card 2 was never used.
func consistent() *world {
	return &world{
		byCard:     map[int64]Totals{0: {2, 500}, 1: {1, 50}},
		byMerchant: map[int64]Totals{7: {2, 500}, 8: {1, 50}},
		cards:      [][3]int64{{0, 500, 1000}, {1, 950, 1000}, {2, 1000, 1000}},
		counters:   map[int64]Totals{0: {2, 500}, 1: {1, 50}, 2: {}},
		merchants:  map[int64]Totals{7: {2, 500}, 8: {1, 50}},
	}
}

func (w *world) check() []Check {
	p := NewPayments(w.byCard, w.byMerchant)
	for _, c := range w.cards {
		p.Card(c[0], c[1], c[2])
	}
	for id, t := range w.counters {
		p.CardCounter(id, t)
	}
	for _, id := range w.extraCounters {
		p.CardCounter(id, Totals{})
	}
	for id, t := range w.merchants {
		p.Merchant(id, t)
	}
	return p.Checks()
}

func TestPaymentsChecks(t *testing.T) {
	const debits, cardholders, merchants, negative = 0, 1, 2, 3
	tests := []struct {
		name   string
		change func(w *world)
		fail   []int  // the checks that must fail; the others must pass
		detail string // in a failing check's examples, when set
	}{
		// A run that kept every invariant passes every check.
		{"consistent", func(*world) {}, nil, ""},
		// Nothing ran yet: no ledger, untouched cards and zero counters.
		{"fresh", func(w *world) {
			w.byCard, w.byMerchant, w.merchants = nil, nil, nil
			w.cards = [][3]int64{{0, 1000, 1000}}
			w.counters = map[int64]Totals{0: {}}
		}, nil, ""},
		// A corrupted balance: the card lost more than the ledger says.
		{"balance corrupted", func(w *world) { w.cards[1][1] -= 100 }, []int{debits}, "card_id 1: debited 150, ledger 50"},
		// Two errors that cancel out in total are still caught card by card.
		{"compensating balances", func(w *world) { w.cards[0][1] += 10; w.cards[1][1] -= 10 }, []int{debits}, "card_id 0: debited 490, ledger 500"},
		// A ledger record whose debit was lost (the card was never debited).
		{"debit lost", func(w *world) { w.cards[0][1] = 1000 }, []int{debits}, "card_id 0: debited 0, ledger 500"},
		// A ledger record for a card that does not exist, and has no counter.
		{"ledger for a missing card", func(w *world) { w.byCard[9] = Totals{1, 5} }, []int{debits, cardholders}, "card_id 9: ledger 1 / 5, no such card"},
		// A cardholder counter one increment short.
		{"counter short", func(w *world) { w.counters[0] = Totals{1, 300} }, []int{cardholders}, "card_id 0: counter 1 / 300, ledger 2 / 500"},
		// A cardholder counter that counts an authorization the ledger lacks.
		{"counter for an unused card", func(w *world) { w.counters[2] = Totals{1, 10} }, []int{cardholders}, "card_id 2: counter 1 / 10, ledger 0 / 0"},
		// A card whose counter document is missing.
		{"counter missing", func(w *world) { delete(w.counters, 1) }, []int{cardholders}, "card_id 1: ledger 1 / 50, no counter"},
		// Two counter documents for one card.
		{"counter twice", func(w *world) { w.extraCounters = []int64{2} }, []int{cardholders}, "card_id 2: more than one counter"},
		// A merchant's buckets summing to less than its ledger records.
		{"merchant buckets short", func(w *world) { w.merchants[7] = Totals{2, 499} }, []int{merchants}, "mid 7: buckets 2 / 499, ledger 2 / 500"},
		// A merchant with ledger records and no bucket at all.
		{"merchant without buckets", func(w *world) { delete(w.merchants, 8) }, []int{merchants}, "mid 8: ledger 1 / 50, no counter bucket"},
		// Buckets for a merchant the ledger never saw.
		{"merchant buckets without ledger", func(w *world) { w.merchants[3] = Totals{1, 1} }, []int{merchants}, "mid 3: buckets 1 / 1, ledger 0 / 0"},
		// An overdraft that the ledger explains is still a broken invariant.
		{"negative balance", func(w *world) {
			w.cards[1] = [3]int64{1, -10, 40}
		}, []int{negative}, "card_id 1: balance -10"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := consistent()
			tt.change(w)
			checks := w.check()
			if len(checks) != 4 {
				t.Fatalf("%d checks, want 4", len(checks))
			}
			failing := map[int]bool{}
			for _, i := range tt.fail {
				failing[i] = true
			}
			for i, c := range checks {
				if c.OK == failing[i] {
					t.Errorf("%s: OK=%v, want %v (%s; %v)", c.Name, c.OK, !failing[i], c.Detail, c.Examples)
				}
				if !c.OK && len(c.Examples) == 0 {
					t.Errorf("%s failed without naming a document", c.Name)
				}
			}
			if AllOK(checks) != (len(tt.fail) == 0) {
				t.Errorf("AllOK = %v with failures %v", AllOK(checks), tt.fail)
			}
			if tt.detail != "" {
				found := false
				for _, i := range tt.fail {
					found = found || strings.Contains(strings.Join(checks[i].Examples, "\n"), tt.detail)
				}
				if !found {
					t.Errorf("no example %q in %+v", tt.detail, checks)
				}
			}
		})
	}
}

// TestPaymentsDetailNumbers: the debits line carries both sums, so a
// failure says by how much.
func TestPaymentsDetailNumbers(t *testing.T) {
	w := consistent()
	w.cards[2][1] = 0
	c := w.check()[0]
	for _, want := range []string{"1,550", "≠", "550", "cards that differ: 1 of 3"} {
		if !strings.Contains(c.Detail, want) {
			t.Errorf("detail %q lacks %q", c.Detail, want)
		}
	}
}

// TestChecksRepeatable: reading the verdicts twice gives the same examples.
func TestChecksRepeatable(t *testing.T) {
	w := consistent()
	w.byCard[9], w.byCard[10] = Totals{1, 5}, Totals{1, 6}
	p := NewPayments(w.byCard, w.byMerchant)
	first := strings.Join(p.Checks()[0].Examples, ";")
	if second := strings.Join(p.Checks()[0].Examples, ";"); first != second {
		t.Fatalf("%q then %q", first, second)
	}
}

func TestNum(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{0, "0"},                   // no separator
		{999, "999"},               // three digits
		{1000, "1,000"},            // the first separator
		{-1234567, "-1,234,567"},   // a sign is not a digit
		{500000000, "500,000,000"}, // a million cards' balances
		{-9223372036854775808, "-9,223,372,036,854,775,808"}, // the smallest int64
	}
	for _, tt := range tests {
		if got := Num(tt.n); got != tt.want {
			t.Errorf("Num(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}
