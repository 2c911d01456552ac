package promsink

import (
	"testing"
	"time"

	rt "github.com/mongoload/mongoload/internal/results/resultstest"
	"github.com/mongoload/mongoload/internal/sink"
)

// TestTransactionStepsAreNotOperations: the exporter serves the mix's
// operations; a transaction's steps, recorded in the same intervals, are
// neither exported as operations nor counted in the achieved rate. The
// oracle is what resultstest recorded per second.
func TestTransactionStepsAreNotOperations(t *testing.T) {
	e, err := Listen(Options{Addr: "127.0.0.1:0", Ops: []Op{{"pay", "transaction"}, {"lookup", "findOne"}}, Workload: "payments", Version: "test", Load: "sessions"})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(nil)
	_, ivs := rt.Transactions(false)
	for i, iv := range ivs {
		e.Interval(sink.NewSnapshot(iv, time.Duration(i+1)*time.Second))
	}
	fams := Scrape(t, "http://"+e.Addr()+"/metrics")
	want := float64(rt.PayN + rt.LookupN + rt.PayErrors)
	if g := fams["mongoload_achieved_ops_per_second"].Metric[0].GetGauge().GetValue(); g != want {
		t.Errorf("achieved %v ops/s, want %v (steps left out)", g, want)
	}
	for _, m := range fams["mongoload_operations_total"].Metric {
		for _, l := range m.Label {
			if l.GetName() == "operation" && (l.GetValue() == "pay/debit" || l.GetValue() == "pay/ledger") {
				t.Errorf("a step is exported as an operation: %v", m)
			}
		}
	}
	if m := Labelled(fams, "mongoload_operations_total", map[string]string{"operation": "pay"}); m == nil || m.Counter.GetValue() != rt.PayN*rt.TxnSeconds {
		t.Errorf("pay: %v, want %d", m, rt.PayN*rt.TxnSeconds)
	}
}
