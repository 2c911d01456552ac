package capacity

import "testing"

func pass(r float64) Outcome { return Outcome{Rate: r, Pass: true} }
func fail(r float64) Outcome { return Outcome{Rate: r, Clear: true} } // not carried: drops
func slow(r float64) Outcome { return Outcome{Rate: r} }              // failed on latency alone

// TestPolicyNext protects the search's rule: climb by the factor until a
// failure, bisect the bracket to the precision, repeat the highest passing
// rate, go on below a repeat that failed, and give up under the floor.
func TestPolicyNext(t *testing.T) {
	p := Policy{Start: 100, Factor: 2, Precision: 0.05, Floor: 1, MaxProbes: 10}
	tests := []struct {
		name    string
		history []Outcome
		want    Decision
	}{
		// the first probe is the start
		{"start", nil, Decision{Rate: 100, Stage: Climb}},
		// a pass climbs by the factor
		{"climb", []Outcome{pass(100), pass(200)}, Decision{Rate: 400, Stage: Climb}},
		// a failure after passes bisects: (200+400)/2
		{"first bisect", []Outcome{pass(100), pass(200), fail(400)}, Decision{Rate: 300, Stage: Bisect}},
		// the bracket narrows around the highest pass below the lowest failure
		{"narrow", []Outcome{pass(100), pass(200), fail(400), fail(300)}, Decision{Rate: 250, Stage: Bisect}},
		// within 5%: 200..210 is 5% exactly, so the highest pass is repeated
		{"confirm", []Outcome{pass(200), fail(210)}, Decision{Rate: 200, Stage: Confirm}},
		// a repeat that held ends the search at that rate, bracketed
		{"done", []Outcome{pass(200), fail(210), pass(200)}, Decision{Done: true, Max: 200, Found: true, Bracketed: true}},
		// a repeat that failed leaves the rate undecided: a third probe decides
		{"confirm failed", []Outcome{pass(100), pass(200), fail(210), slow(200)}, Decision{Rate: 200, Stage: Confirm}},
		// two of three passed: the rate holds, and passed twice
		{"majority pass", []Outcome{pass(100), pass(200), fail(210), slow(200), pass(200)}, Decision{Done: true, Max: 200, Found: true, Bracketed: true}},
		// two of three failed: the rate fails, bisect below it
		{"majority fail", []Outcome{pass(100), pass(200), fail(210), slow(200), slow(200)}, Decision{Rate: 150, Stage: Bisect}},
		// a repeat that dropped operations fails the rate at once
		{"confirm dropped", []Outcome{pass(100), pass(200), fail(210), fail(200)}, Decision{Rate: 150, Stage: Bisect}},
		// one failure on latency alone is measured again before it counts
		{"recheck", []Outcome{pass(100), slow(200)}, Decision{Rate: 200, Stage: Recheck}},
		// failing twice on latency fails the rate
		{"recheck failed", []Outcome{pass(100), slow(200), slow(200)}, Decision{Rate: 150, Stage: Bisect}},
		// a recheck that passed makes it undecided (one each): a third probe
		{"recheck passed", []Outcome{pass(100), slow(200), pass(200)}, Decision{Rate: 200, Stage: Confirm}},
		// two passes of three: the climb goes on
		{"recheck majority", []Outcome{pass(100), slow(200), pass(200), pass(200)}, Decision{Rate: 400, Stage: Climb}},
		// a first probe failing on latency is rechecked, not descended from
		{"first slow", []Outcome{slow(100)}, Decision{Rate: 100, Stage: Recheck}},
		// a pass above the lowest failure (noise) does not raise the bracket
		{"noise above", []Outcome{pass(100), fail(200), pass(300)}, Decision{Rate: 150, Stage: Bisect}},
		// the first probe failed: descend by the factor
		{"descend", []Outcome{fail(100)}, Decision{Rate: 50, Stage: Descend}},
		// a pass after descending bisects up
		{"descended", []Outcome{fail(100), pass(50)}, Decision{Rate: 75, Stage: Bisect}},
		// under the floor the search gives up: nothing met the service level
		{"floor", []Outcome{fail(1.5)}, Decision{Done: true}},
		// small rates keep hundredths so bisection still narrows
		{"small", []Outcome{pass(4), fail(8)}, Decision{Rate: 6, Stage: Bisect}},
		// the budget ends a climb that never failed: a lower bound only
		{"budget unbracketed", []Outcome{pass(1), pass(2), pass(4), pass(8), pass(16), pass(32), pass(64), pass(128), pass(256), pass(512)},
			Decision{Done: true, Max: 512, Found: true}},
		// the budget ends a bisection at the best bracket so far
		{"budget bracketed", []Outcome{pass(1), pass(2), pass(4), pass(8), pass(16), pass(32), pass(64), pass(128), fail(256), pass(192)},
			Decision{Done: true, Max: 192, Found: true, Bracketed: true}},
		// the budget ends a descent without a pass: nothing met it
		{"budget none", []Outcome{fail(1e9), fail(5e8), fail(2.5e8), fail(1.25e8), fail(6.25e7), fail(3.125e7), fail(1.5625e7), fail(7.8125e6), fail(3.90625e6), fail(1953125)},
			Decision{Done: true}},
	}
	for _, tt := range tests {
		if got := p.Next(tt.history); got != tt.want {
			t.Errorf("%s: Next = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// TestPolicyConverges runs the policy against a system whose service level
// holds up to a true limit (failing on latency above it, dropping above
// twice it): it must end within the precision below it, confirmed.
func TestPolicyConverges(t *testing.T) {
	for _, limit := range []float64{3, 97, 1000, 12345, 250000} {
		for _, start := range []float64{1, 100, 5000} {
			p := DefaultPolicy(start)
			var h []Outcome
			d := p.Next(h)
			for !d.Done {
				h = append(h, Outcome{Rate: d.Rate, Pass: d.Rate <= limit, Clear: d.Rate > 2*limit})
				d = p.Next(h)
			}
			if !d.Found || !d.Bracketed || d.Max > limit || d.Max < limit/(1+p.Precision)-0.01 {
				t.Errorf("limit %g from %g: %+v after %d probes, want within 5%% below the limit", limit, start, d, len(h))
			}
		}
	}
}

// TestPolicyProbeBudget: started as findmax starts (half a closed loop's
// throughput, which runs 1.1 to 2 times above the rate meeting the SLO),
// a search of a system whose latency fails above its limit (dropping
// above 1.3 times it) ends within 5% below the limit in at most 12 probes
// on average, rechecks and the confirmation included.
func TestPolicyProbeBudget(t *testing.T) {
	total, n := 0, 0
	for _, limit := range []float64{500, 1234, 3000, 6793, 9000, 20000} {
		for _, over := range []float64{1.1, 1.3, 1.6, 2.0} {
			p := DefaultPolicy(float64(int(limit * over / 2)))
			var h []Outcome
			d := p.Next(h)
			for !d.Done {
				h = append(h, Outcome{Rate: d.Rate, Pass: d.Rate <= limit, Clear: d.Rate > 1.3*limit})
				d = p.Next(h)
			}
			if d.Max > limit || d.Max < limit/1.05 {
				t.Errorf("limit %g, start %g: answer %g, not within 5%% below", limit, p.Start, d.Max)
			}
			total += len(h)
			n++
		}
	}
	if avg := float64(total) / float64(n); avg > 12 {
		t.Errorf("%.1f probes on average, want at most 12", avg)
	}
}
