package capacity

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestNextDecided protects the decided search's rule (edge.go): windows
// decide rates, the ends are shown by more windows, and a rate whose
// windows disagree is the edge, inside the interval.
func TestNextDecided(t *testing.T) {
	p := Policy{Start: 100, Factor: 2, Precision: 0.05, Floor: 1, MaxProbes: 20, Decided: true}
	tests := []struct {
		name    string
		history []Outcome
		want    Decision
	}{
		{"start", nil, Decision{Rate: 100, Stage: Climb}},
		{"climb", []Outcome{pass(100), pass(200)}, Decision{Rate: 400, Stage: Climb}},
		// a window failing on latency bisects at once: no recheck before the end
		{"bisect below a slow window", []Outcome{pass(100), slow(200)}, Decision{Rate: 150, Stage: Bisect}},
		{"bisect below drops", []Outcome{pass(100), pass(200), fail(400)}, Decision{Rate: 300, Stage: Bisect}},
		// within the precision: the low end is measured until it passed in NeedPass (3) windows
		{"confirm low", []Outcome{pass(200), slow(210)}, Decision{Rate: 200, Stage: Confirm}},
		{"confirm low again", []Outcome{pass(200), slow(210), pass(200)}, Decision{Rate: 200, Stage: Confirm}},
		// then the high end until it failed in NeedFail windows
		{"recheck high", []Outcome{pass(200), slow(210), pass(200), pass(200)}, Decision{Rate: 210, Stage: Recheck}},
		{"done", []Outcome{pass(200), slow(210), pass(200), pass(200), slow(210)},
			Decision{Done: true, Max: 200, Found: true, Bracketed: true, Hi: 210}},
		// a window not carried shows the high end at once
		{"done on drops", []Outcome{pass(200), fail(210), pass(200), pass(200)},
			Decision{Done: true, Max: 200, Found: true, Bracketed: true, Hi: 210}},
		// the low end failing a window makes it the edge: the gap below it is bisected
		{"low end was the edge", []Outcome{pass(100), pass(200), slow(210), pass(200), slow(200)}, Decision{Rate: 150, Stage: Bisect}},
		// the high end passing a window makes it the edge: the gap above it is bisected
		{"high end was the edge", []Outcome{pass(100), pass(200), fail(400), slow(300), pass(300)}, Decision{Rate: 250, Stage: Bisect}},
		{"above the edge", []Outcome{pass(100), fail(400), slow(300), pass(300), pass(290)}, Decision{Rate: 350, Stage: Bisect}},
		// a pass above every failing window: the edge goes on up
		{"edge goes up", []Outcome{pass(100), slow(200), pass(300)}, Decision{Rate: 600, Stage: Climb}},
		{"descend", []Outcome{fail(100)}, Decision{Rate: 50, Stage: Descend}},
		{"floor", []Outcome{fail(1.5)}, Decision{Done: true}},
		// the budget ends the search with the ends not yet shown, and says which
		{"budget", []Outcome{pass(100), fail(200), pass(150), slow(175), slow(162), pass(156), pass(159), slow(160), pass(150), pass(150),
			pass(159), slow(159), pass(156), slow(156), pass(153), slow(153), pass(151), pass(151), slow(151), pass(150)},
			Decision{Done: true, Max: 150, Found: true, Bracketed: true, Hi: 160, Unshown: "high"}},
	}
	for _, tt := range tests {
		if got := p.Next(tt.history); got != tt.want {
			t.Errorf("%s: Next = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// TestDecidedEdge runs the decided search against a server whose windows
// fail at random near its limit, as the test server's do: a window at rate
// r fails with a probability rising across the edge (5% at 5,200, 18% at
// 5,600, 50% at 6,000, 82% at 6,400 ops/s), within findmax's probe budget.
// Over many searches a fresh window at the answer's low end must fail at
// most one time in four on average (one window a rate, the rule before
// edge.go, gave 43%), and one at its high end fail more often than not.
func TestDecidedEdge(t *testing.T) {
	failP := func(r float64) float64 { return 1 / (1 + math.Exp(-(r-6000)/260)) }
	rng := rand.New(rand.NewPCG(1, 2))
	const searches = 2000
	var atLow, atHigh float64
	windows, unbracketed := 0, 0
	for i := 0; i < searches; i++ {
		p := Policy{Start: 3442, Factor: 2, Precision: 0.05, Floor: 1, MaxProbes: 16, Decided: true}
		var h []Outcome
		d := p.Next(h)
		for !d.Done {
			h = append(h, Outcome{Rate: d.Rate, Pass: rng.Float64() >= failP(d.Rate), Clear: d.Rate >= 8000})
			d = p.Next(h)
		}
		if !d.Found {
			t.Fatalf("search %d: %+v", i, d)
		}
		windows += len(h)
		atLow += failP(d.Max) / searches
		if !d.Bracketed { // the budget ran out with a pass above every failure
			unbracketed++
			continue
		}
		atHigh += failP(d.Hi)
	}
	atHigh /= float64(searches - unbracketed)
	if unbracketed > searches/100 {
		t.Errorf("%d of %d searches ended without a high end", unbracketed, searches)
	}
	if atLow > 0.25 || atHigh < 0.6 {
		t.Errorf("a fresh window fails %.0f%% of the time at the low end, %.0f%% at the high end: want at most 25%% and at least 60%%", 100*atLow, 100*atHigh)
	}
	t.Logf("a fresh window fails %.0f%% at the low end, %.0f%% at the high end; %.1f windows a search", 100*atLow, 100*atHigh, float64(windows)/searches)
}

// TestDecidedConverges: on a server without an edge (every window below
// the limit passes, every one above fails) the decided search ends within
// the precision below the limit, both ends shown.
func TestDecidedConverges(t *testing.T) {
	for _, limit := range []float64{3, 97, 1000, 12345, 250000} {
		for _, start := range []float64{1, 100, 5000} {
			p := DefaultPolicy(start)
			p.Decided = true
			var h []Outcome
			d := p.Next(h)
			for !d.Done {
				h = append(h, Outcome{Rate: d.Rate, Pass: d.Rate <= limit, Clear: d.Rate > 2*limit})
				d = p.Next(h)
			}
			if !d.Found || !d.Bracketed || d.Unshown != "" || d.Max > limit || d.Max < limit/(1+p.Precision)-0.01 || d.Hi <= limit {
				t.Errorf("limit %g from %g: %+v after %d probes, want within 5%% below the limit", limit, start, d, len(h))
			}
		}
	}
}
