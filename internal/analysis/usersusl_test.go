package analysis

import (
	"math"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/capacity/usl"
	"github.com/mongoload/mongoload/internal/results"
)

// TestPlanUsersExtrapolates: a growth stage beyond every input's measured
// capacity is carried by a concurrency sweep's fitted law at the fewest
// workers whose predicted throughput, in users, covers it with the
// headroom; the oracle is the law itself (X(N) in closed form), and the
// stage says how far beyond the sweep's largest level it is.
func TestPlanUsersExtrapolates(t *testing.T) {
	law := usl.Model{Sigma: 0.03, Kappa: 0.0005, Lambda: 1000}
	inputs := seed003Inputs()
	sw := &results.Sweep{Load: results.SweepLoad{Type: results.Closed, Parameter: "concurrency", Levels: []float64{1, 2, 4, 8}}}
	for _, n := range sw.Load.Levels {
		res := *inputs[0].Result
		res.Totals.Throughput = law.Throughput(n)
		sw.Steps = append(sw.Steps, results.SweepStep{Level: n, Complete: true, Result: &res})
	}
	a, err := AnalyseSweep(sw, DefaultSweepOptions())
	if err != nil {
		t.Fatal(err)
	}
	sw.Analysis, sw.Label = a, "swept"
	inputs[0] = CompareInput{File: inputs[0].File, Sweep: sw}
	c, err := Compare(inputs, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	x0 := law.Throughput(8) // the baseline's max throughput: its largest level here
	users := 1000.0
	stage := 1.5 * users // needs 1.5 x 1.2 = 1.8 x X(8), below the law's peak
	if err := PlanUsers(c, inputs, UserOptions{Users: users, Growth: []float64{stage}, Headroom: 0.2}); err != nil {
		t.Fatal(err)
	}
	want := 0.0
	for n := 9.0; n < 200; n++ {
		if law.Throughput(n)/x0*users >= stage*1.2 {
			want = n
			break
		}
	}
	st := c.Users.Stages[1]
	e := st.Extrapolated
	if st.Input != nil {
		t.Fatalf("the stage was carried as measured: %+v", st)
	}
	t.Logf("stage %+v; law: %g workers", st, want)
	if want == 0 {
		t.Fatal("the law never carries the stage: the test's numbers are wrong")
	}
	if e == nil || e.Input != "swept" || math.Abs(e.Concurrency-want) > 1 || e.Beyond != e.Concurrency/8 || e.FarBeyond != (e.Concurrency > 20) {
		t.Fatalf("extrapolated %+v, want the law's %g workers", e, want)
	}
	if !strings.Contains(st.Note, "Universal Scalability Law carries it at") {
		t.Errorf("note %q", st.Note)
	}
}
