package builtin_test

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/builtin"
	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/generate"
	"github.com/mongoload/mongoload/internal/verify"
	"github.com/mongoload/mongoload/internal/workload"
	"github.com/mongoload/mongoload/internal/workload/workloadtest"
)

// load parses, validates and compiles a built-in workload.
func load(t *testing.T, name string) (*config.Config, *workload.Plan) {
	t.Helper()
	data, ok := builtin.Get(name)
	if !ok {
		t.Fatalf("no built-in %q", name)
	}
	cfg, plan := workloadtest.Compile(t, data, "builtin:"+name)
	return cfg, plan
}

// record is one ledger record of each kind: the live record the authorize
// transaction inserts, with the values its let drew, and the collection's
// template, used to seed history.
type record struct {
	live, history bson.Raw
	vars          map[string]bson.RawValue
}

// ledgerRecords generates n records, drawing the let first as the engine does.
func ledgerRecords(t *testing.T, plan *workload.Plan, n int) []record {
	t.Helper()
	var tx, step *workload.Op
	for _, op := range plan.Ops {
		if op.Kind == workload.Transaction {
			tx = op
		}
	}
	if tx == nil {
		t.Fatal("no transaction in the plan")
	}
	for _, st := range tx.Steps {
		if st.Kind == workload.InsertOne && st.Collection.Name == "ledger" {
			step = st
		}
	}
	if step == nil || step.Document == nil {
		t.Fatal("the transaction inserts no ledger record")
	}
	st := generate.NewState(1, 1)
	out := make([]record, n)
	for i := range out {
		tx.Let.Draw(st)
		r := &out[i]
		r.vars = map[string]bson.RawValue{}
		for j, name := range tx.Let.Names {
			r.vars[name] = bson.RawValue{Type: st.Vars[j].Type, Value: slices.Clone(st.Vars[j].Bytes)}
		}
		r.live = step.Document.Append(nil, st)
		r.history = step.Collection.Doc.Append(nil, st)
	}
	return out
}

// fields counts a document's fields at every depth: a sub-document is a
// field and so is each of its own; an array is one field, plus the fields
// of the documents it holds.
func fields(doc bson.Raw) int {
	elems, _ := doc.Elements()
	n := 0
	for _, e := range elems {
		n++
		n += nested(e.Value())
	}
	return n
}

func nested(v bson.RawValue) int {
	switch v.Type {
	case bson.TypeEmbeddedDocument:
		return fields(v.Document())
	case bson.TypeArray:
		vals, _ := v.Array().Values()
		n := 0
		for _, it := range vals {
			n += nested(it)
		}
		return n
	}
	return 0
}

// paths lists a document's field paths (array positions left out).
func paths(prefix string, doc bson.Raw, into map[string]bool) {
	elems, _ := doc.Elements()
	for _, e := range elems {
		p := prefix + e.Key()
		into[p] = true
		pathsOf(p+".", e.Value(), into)
	}
}

func pathsOf(prefix string, v bson.RawValue, into map[string]bool) {
	switch v.Type {
	case bson.TypeEmbeddedDocument:
		paths(prefix, v.Document(), into)
	case bson.TypeArray:
		vals, _ := v.Array().Values()
		for _, it := range vals {
			pathsOf(prefix, it, into)
		}
	}
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestLedgerRecordSize protects the ledger record that seed 002 describes
// (~110 fields, ~2.5 KB; the heavy variant ~400 fields, ~7 KB): a change to
// the preset that makes the insert lighter or heavier changes what the
// benchmark measures.
func TestLedgerRecordSize(t *testing.T) {
	tests := []struct {
		preset             string
		minFields, maxFids int
		minBytes, maxBytes float64 // average BSON size
	}{
		// The production record of seed 002: ~110 fields, ~2.5 KB.
		{"payments", 100, 120, 2300, 2700},
		// The record the seed's first benchmark ran: ~400 fields, ~7 KB.
		{"payments-heavy", 380, 420, 6500, 7500},
	}
	const n = 500
	for _, tt := range tests {
		t.Run(tt.preset, func(t *testing.T) {
			_, plan := load(t, tt.preset)
			recs := ledgerRecords(t, plan, n)
			var live, history []bson.Raw
			for _, r := range recs {
				live, history = append(live, r.live), append(history, r.history)
			}
			for kind, docs := range map[string][]bson.Raw{"live": live, "history": history} {
				total, minF, maxF := 0, 1<<30, 0
				for _, d := range docs {
					total += len(d)
					f := fields(d)
					minF, maxF = min(minF, f), max(maxF, f)
				}
				avg := float64(total) / n
				t.Logf("%s %s record: %d-%d fields, %.0f bytes on average", tt.preset, kind, minF, maxF, avg)
				if minF < tt.minFields || maxF > tt.maxFids {
					t.Errorf("%s record: %d-%d fields, want %d-%d", kind, minF, maxF, tt.minFields, tt.maxFids)
				}
				if avg < tt.minBytes || avg > tt.maxBytes {
					t.Errorf("%s record: %.0f bytes on average, want %.0f-%.0f", kind, avg, tt.minBytes, tt.maxBytes)
				}
			}
			// The live record and the history record have the same shape,
			// so a seeded ledger holds what the transactions write.
			lp, hp := map[string]bool{}, map[string]bool{}
			for i := range live {
				paths("", live[i], lp)
				paths("", history[i], hp)
			}
			if !reflect.DeepEqual(lp, hp) {
				t.Errorf("live and history records differ in shape:\nlive    %v\nhistory %v", keys(lp), keys(hp))
			}
		})
	}
}

// TestLiveLedgerRecord: the ledger record carries the transaction's own
// card, merchant and amount (the let's values), which the invariants
// compare with the balances and the counters.
func TestLiveLedgerRecord(t *testing.T) {
	s := verify.PaymentsSchema
	for _, preset := range []string{"payments", "payments-heavy"} {
		_, plan := load(t, preset)
		for _, c := range plan.Collections {
			c.Keys.Reset(0, 1000) // a seeded key space, so that the let's keys vary
		}
		for _, r := range ledgerRecords(t, plan, 50) {
			for field, v := range map[string]string{s.LedgerCard: "card", s.LedgerMerchant: "mid", s.LedgerAmount: "amount"} {
				if got := r.live.Lookup(field); !got.Equal(r.vars[v]) {
					t.Errorf("%s: ledger %s is %v, want the let's %s %v", preset, field, got, v, r.vars[v])
				}
			}
			if got := r.live.Lookup(s.LedgerSource).StringValue(); got != s.LiveSource {
				t.Errorf("%s: ledger %s is %q, want %q", preset, s.LedgerSource, got, s.LiveSource)
			}
		}
	}
}

// TestPaymentsSchema keeps the preset and internal/verify's schema in step:
// every field the invariants read is in the documents the preset writes.
func TestPaymentsSchema(t *testing.T) {
	s := verify.PaymentsSchema
	want := map[string][]string{
		s.Cards:            {s.CardID, s.Balance, s.InitialBalance},
		s.CardCounters:     {s.CounterCard, s.CounterCount, s.CounterAmount},
		s.MerchantCounters: {s.CounterMerchant, s.CounterCount, s.CounterAmount},
		s.Ledger:           {s.LedgerCard, s.LedgerMerchant, s.LedgerAmount, s.LedgerSource},
	}
	for _, preset := range []string{"payments", "payments-heavy"} {
		_, plan := load(t, preset)
		st := generate.NewState(1, 1)
		for _, c := range plan.Collections {
			doc := bson.Raw(c.Doc.Append(nil, st))
			for _, f := range want[c.Name] {
				v, err := doc.LookupErr(f)
				if err != nil {
					t.Errorf("%s: %s documents lack %s, which verify reads", preset, c.Name, f)
					continue
				}
				if f != s.LedgerSource && v.Type != bson.TypeInt64 && v.Type != bson.TypeInt32 {
					t.Errorf("%s: %s.%s is a %s, want an integer (cents, counts)", preset, c.Name, f, v.Type)
				}
			}
			delete(want, c.Name)
		}
		if len(want) > 0 && preset == "payments" {
			t.Errorf("%s lacks collections %v", preset, slices.Sorted(maps.Keys(want)))
		}
	}
}

// TestPaymentsHeavyIsPaymentsWithAHeavierLedger: the two presets differ
// only in the ledger record, so their results compare the record's weight
// and nothing else.
func TestPaymentsHeavyIsPaymentsWithAHeavierLedger(t *testing.T) {
	light, _ := load(t, "payments")
	heavy, _ := load(t, "payments-heavy")
	for _, cfg := range []*config.Config{light, heavy} {
		cfg.Name, cfg.Description, cfg.Source = "", "", ""
		for i := range cfg.Collections {
			if cfg.Collections[i].Name == "ledger" {
				cfg.Collections[i].Template = config.Value{}
			}
		}
		for i := range cfg.Operations {
			for j := range cfg.Operations[i].Steps {
				if st := &cfg.Operations[i].Steps[j]; st.Collection == "ledger" {
					st.Document = config.Value{}
				}
			}
		}
		zeroLines(reflect.ValueOf(cfg).Elem())
	}
	if !reflect.DeepEqual(light, heavy) {
		t.Errorf("payments and payments-heavy differ beyond the ledger record:\n%s", diff(light, heavy))
	}
}

// zeroLines clears every field named Line (source lines differ between files).
func zeroLines(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			zeroLines(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).Name == "Line" && v.Field(i).CanSet() {
				v.Field(i).SetInt(0)
				continue
			}
			zeroLines(v.Field(i))
		}
	case reflect.Slice:
		for i := range v.Len() {
			zeroLines(v.Index(i))
		}
	}
}

func diff(a, b *config.Config) string {
	out := ""
	va, vb := reflect.ValueOf(*a), reflect.ValueOf(*b)
	for i := range va.NumField() {
		if !reflect.DeepEqual(va.Field(i).Interface(), vb.Field(i).Interface()) {
			out += fmt.Sprintf("%s:\n  %+v\n  %+v\n", va.Type().Field(i).Name, va.Field(i).Interface(), vb.Field(i).Interface())
		}
	}
	return out
}
