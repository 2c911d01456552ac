package analysis

import (
	"math"
	"testing"

	rt "github.com/mongoload/mongoload/internal/results/resultstest"
)

// TestObjectivesCountTransactionsOnce: an objective over the whole run, a
// class or a type measures the mix's operations, a transaction once; a
// step is measured only when named. The oracle is arithmetic on what
// resultstest.Transactions recorded.
func TestObjectivesCountTransactionsOnce(t *testing.T) {
	res, _ := rt.Transactions(false)
	mixRate := float64(rt.PayN + rt.LookupN)
	// The median of the mix: PayN transactions at PayMs outnumber LookupN
	// reads; with the steps' faster samples added it would fall to LedgerMs.
	tests := []struct {
		slo  string
		want float64
	}{
		{"throughput>=1", mixRate},
		{"p50<=1s", rt.PayMs},
		{"errors<=100", rt.PayErrors * rt.TxnSeconds},
		{"transaction:throughput>=1", rt.PayN},
		{"updateOne:throughput>=1", 0},       // no operation of the mix is an updateOne: a step's type is not the mix's
		{"pay/debit:throughput>=1", rt.PayN}, // a step named explicitly
		{"pay/debit:p50<=1s", rt.DebitMs},
	}
	for _, tt := range tests {
		v := verdictOf(t, res, tt.slo)
		got := v.Measured
		if v.Missing {
			got = 0
		}
		if math.Abs(got-tt.want) > 0.001*tt.want+1e-9 {
			t.Errorf("%s: measured %g, want %g", tt.slo, got, tt.want)
		}
	}

	write, err := ClassFigures(res, WriteClass)
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(rt.PayN * rt.TxnSeconds); write == nil || write.Operations != want {
		t.Errorf("write class: %+v, want the %d transactions alone", write, want)
	}
	f, err := StepFiguresOf(1, true, res)
	if err != nil {
		t.Fatal(err)
	}
	if f.Throughput != mixRate || f.Read.Operations+f.Write.Operations != f.Operations {
		t.Errorf("sweep step figures: %.1f/s, read %d + write %d of %d operations; want %g/s and classes adding up", f.Throughput, f.Read.Operations, f.Write.Operations, f.Operations, mixRate)
	}

	c, err := Compare([]CompareInput{{File: "a.json", Result: res}, {File: "b.json", Result: res}}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range c.Rows {
		if r.Key == "updateOne.avg" || r.Key == "insertOne.avg" {
			t.Errorf("comparison row %q: a step's type is not an operation type of the mix", r.Metric)
		}
	}
}
