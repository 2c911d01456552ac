// Package verify checks, after a run, the invariants that a workload's
// transactions must keep, from figures read out of the database. It holds
// only the comparisons: internal/mongodb reads the figures, internal/cli
// prints the verdicts, so every rule here is table-testable without a server.
package verify

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mongoload/mongoload/internal/config"
)

// Schema names the collections and fields of the built-in payments workload
// (internal/builtin/payments.yaml) that the invariants read.
type Schema struct {
	Cards, Ledger, CardCounters, MerchantCounters string // collections

	CardID, Balance, InitialBalance string // fields of a card
	LedgerCard, LedgerMerchant      string // fields of a ledger record
	LedgerAmount                    string
	// LedgerSource and LiveSource pick the records the transactions wrote:
	// records seeded as history (to give the ledger volume) debited no card.
	LedgerSource, LiveSource     string
	CounterCard, CounterMerchant string // fields of the counters
	CounterCount, CounterAmount  string
}

// PaymentsSchema is the payments workload's schema.
var PaymentsSchema = Schema{
	Cards: "cards", Ledger: "ledger", CardCounters: "cardholder_counters", MerchantCounters: "merchant_counters",
	CardID: "card_id", Balance: "balance", InitialBalance: "initial_balance",
	LedgerCard: "cardId", LedgerMerchant: "mid", LedgerAmount: "amount",
	LedgerSource: "source", LiveSource: "authorize",
	CounterCard: "card_id", CounterMerchant: "mid", CounterCount: "count", CounterAmount: "amount",
}

// Totals is a number of authorizations and the sum of their amounts (cents).
type Totals struct{ Count, Amount int64 }

// Add returns t plus u.
func (t Totals) Add(u Totals) Totals { return Totals{t.Count + u.Count, t.Amount + u.Amount} }

func (t Totals) String() string { return fmt.Sprintf("%s / %s", Num(t.Count), Num(t.Amount)) }

// Check is the verdict on one invariant.
type Check struct {
	Name   string // what must hold, e.g. "debits = ledger"
	OK     bool
	Detail string // the numbers compared
	// Examples names a few of the documents that break it (at most MaxExamples).
	Examples []string
}

// MaxExamples is how many offending documents a failed Check names.
const MaxExamples = 5

// tally keeps one side of a per-key comparison: the ledger's totals for a
// key, and whether the other side (a card, a counter) has been seen.
type tally struct {
	ledger     Totals
	card, cntr bool
}

// Payments compares the payments workload's collections with its ledger.
// Feed it the ledger's totals per card and per merchant (NewPayments), then
// every card, cardholder counter and merchant (Card, CardCounter,
// Merchant), in any order, and read the verdicts with Checks.
type Payments struct {
	cards     map[int64]tally
	merchants map[int64]tally
	ledger    Totals // every live ledger record

	nCards, negative, cardsOff int64
	initial, balance           int64
	minBalance                 int64
	negEx, cardEx              []string

	nCounters, countersOff int64
	counters               Totals
	counterEx              []string

	nMerchants, merchantsOff int64
	merchantTotals           Totals
	merchantEx               []string
}

// NewPayments starts a comparison from the live ledger records' totals per
// card and per merchant.
func NewPayments(byCard, byMerchant map[int64]Totals) *Payments {
	p := &Payments{cards: make(map[int64]tally, len(byCard)), merchants: make(map[int64]tally, len(byMerchant))}
	for id, t := range byCard {
		p.cards[id] = tally{ledger: t}
		p.ledger = p.ledger.Add(t)
	}
	for id, t := range byMerchant {
		p.merchants[id] = tally{ledger: t}
	}
	return p
}

// Card records one card: its balance now and the balance it started with.
func (p *Payments) Card(id, balance, initial int64) {
	if p.nCards == 0 || balance < p.minBalance {
		p.minBalance = balance
	}
	p.nCards++
	p.initial += initial
	p.balance += balance
	if balance < 0 {
		p.negative++
		p.negEx = example(p.negEx, "card_id %d: balance %s", id, Num(balance))
	}
	t := p.cards[id]
	t.card = true
	p.cards[id] = t
	if drop := initial - balance; drop != t.ledger.Amount {
		p.cardsOff++
		p.cardEx = example(p.cardEx, "card_id %d: debited %s, ledger %s", id, Num(drop), Num(t.ledger.Amount))
	}
}

// CardCounter records one cardholder's counter.
func (p *Payments) CardCounter(id int64, c Totals) {
	p.nCounters++
	p.counters = p.counters.Add(c)
	t := p.cards[id]
	if t.cntr {
		p.countersOff++
		p.counterEx = example(p.counterEx, "card_id %d: more than one counter", id)
		return
	}
	t.cntr = true
	p.cards[id] = t
	if c != t.ledger {
		p.countersOff++
		p.counterEx = example(p.counterEx, "card_id %d: counter %s, ledger %s", id, c, t.ledger)
	}
}

// Merchant records one merchant's counter: the sum of its buckets.
func (p *Payments) Merchant(mid int64, buckets Totals) {
	p.nMerchants++
	p.merchantTotals = p.merchantTotals.Add(buckets)
	t := p.merchants[mid]
	t.cntr = true
	p.merchants[mid] = t
	if buckets != t.ledger {
		p.merchantsOff++
		p.merchantEx = example(p.merchantEx, "mid %d: buckets %s, ledger %s", mid, buckets, t.ledger)
	}
}

// Checks returns the verdict on each invariant, after everything was fed:
//
//   - debits = ledger: what the cards lost, Σ(initial_balance − balance),
//     equals what the ledger recorded, Σ amount, in total and card by card;
//   - cardholder counters = ledger: each counter's count and amount equal
//     its card's ledger records';
//   - merchant counters = ledger: each merchant's buckets, summed, equal its
//     ledger records';
//   - no negative balance.
func (p *Payments) Checks() []Check {
	// Ledger records whose card or counter was never seen are mismatches
	// too: a debit of a card that does not exist, an increment that missed.
	var noCard, noCounter, noBucket []int64
	for id, t := range p.cards {
		if t.ledger != (Totals{}) && !t.card {
			noCard = append(noCard, id)
		}
		if t.ledger != (Totals{}) && !t.cntr {
			noCounter = append(noCounter, id)
		}
	}
	for id, t := range p.merchants {
		if t.ledger != (Totals{}) && !t.cntr {
			noBucket = append(noBucket, id)
		}
	}
	cardsOff := p.cardsOff + int64(len(noCard))
	countersOff := p.countersOff + int64(len(noCounter))
	merchantsOff := p.merchantsOff + int64(len(noBucket))
	cardEx := unseen(p.cardEx, noCard, p.cards, "card_id %d: ledger %s, no such card")
	counterEx := unseen(p.counterEx, noCounter, p.cards, "card_id %d: ledger %s, no counter")
	merchantEx := unseen(p.merchantEx, noBucket, p.merchants, "mid %d: ledger %s, no counter bucket")
	drop := p.initial - p.balance
	return []Check{
		{
			Name: "debits = ledger",
			OK:   drop == p.ledger.Amount && cardsOff == 0,
			Detail: fmt.Sprintf("Σ(initial_balance − balance) %s %s Σ ledger.amount %s over %s records; cards that differ: %s of %s",
				Num(drop), eq(drop == p.ledger.Amount), Num(p.ledger.Amount), Num(p.ledger.Count), Num(cardsOff), Num(p.nCards)),
			Examples: cardEx,
		},
		{
			Name: "cardholder counters = ledger",
			OK:   countersOff == 0,
			Detail: fmt.Sprintf("counters: %s, count/amount %s (ledger %s); that differ: %s",
				Num(p.nCounters), p.counters, p.ledger, Num(countersOff)),
			Examples: counterEx,
		},
		{
			Name: "merchant counters = ledger",
			OK:   merchantsOff == 0,
			Detail: fmt.Sprintf("merchants: %s, buckets summed %s (ledger %s); that differ: %s",
				Num(p.nMerchants), p.merchantTotals, p.ledger, Num(merchantsOff)),
			Examples: merchantEx,
		},
		{
			Name:     "no negative balance",
			OK:       p.negative == 0,
			Detail:   fmt.Sprintf("cards: %s, lowest balance %s, negative: %s", Num(p.nCards), Num(p.minBalance), Num(p.negative)),
			Examples: p.negEx,
		},
	}
}

// Cards is the number of cards fed so far.
func (p *Payments) Cards() int64 { return p.nCards }

func eq(ok bool) string {
	if ok {
		return "="
	}
	return "≠"
}

// unseen adds examples for the ledger keys that the other side lacks, in
// key order so that the report is the same from one call to the next.
func unseen(ex []string, ids []int64, m map[int64]tally, format string) []string {
	ex = slices.Clone(ex)
	slices.Sort(ids)
	for _, id := range ids {
		ex = example(ex, format, id, m[id].ledger)
	}
	return ex
}

func example(ex []string, format string, args ...any) []string {
	if len(ex) >= MaxExamples {
		return ex
	}
	return append(ex, fmt.Sprintf(format, args...))
}

// Schemas are the built-in workloads whose invariants verify knows.
var Schemas = map[string]Schema{"payments": PaymentsSchema, "payments-heavy": PaymentsSchema}

// SchemaOf is the schema of the built-in workload name, or an error that
// names those verify knows (and the closest).
func SchemaOf(name string) (Schema, error) {
	if s, ok := Schemas[name]; ok {
		return s, nil
	}
	names := slices.Sorted(maps.Keys(Schemas))
	return Schema{}, fmt.Errorf("verify: give the workload whose invariants to check: %s%s", strings.Join(names, ", "), config.DidYouMean(name, names))
}
