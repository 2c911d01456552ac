package capacity

import (
	"fmt"
	"math"

	"github.com/mongoload/mongoload/internal/analysis"
	"github.com/mongoload/mongoload/internal/results"
)

// DefaultAchievedShare is the share of its rate a probe must achieve: an
// open loop that completes less than it asked for did not carry the rate,
// whatever its latencies say.
const DefaultAchievedShare = 0.95

// DroppedTerm is the term no probe may break: an operation dropped.
const DroppedTerm = "dropped=0"

// Judge checks one probe at rate against the objectives and the terms
// every probe must meet besides: no dropped operation, no error, and at
// least share of the rate achieved. It returns every term with its
// measurement and whether all passed.
func Judge(res *results.Result, rate float64, objectives []analysis.Objective, share float64) ([]results.Term, bool, error) {
	vs, err := analysis.Check(res, objectives)
	if err != nil {
		return nil, false, err
	}
	var terms []results.Term
	for _, v := range vs {
		terms = append(terms, results.Term{Text: v.Objective.Text, Measured: v.Measured, Shown: v.Shown(), Pass: v.Pass,
			Bound: v.Objective.Value, Unit: v.Objective.Unit()})
	}
	dropped := res.Dropped()
	t := res.Totals
	terms = append(terms,
		results.Term{Text: DroppedTerm, Measured: float64(dropped), Shown: fmt.Sprintf("%d dropped", dropped), Pass: dropped == 0, Unit: "operations"},
		results.Term{Text: "errors=0", Measured: float64(t.Errors), Shown: fmt.Sprintf("%d errors", t.Errors), Pass: t.Errors == 0, Unit: "operations"},
		results.Term{Text: fmt.Sprintf("achieved>=%g%%", math.Round(share*1000)/10), Measured: t.Throughput,
			Shown: fmt.Sprintf("%.1f ops/s of %s", t.Throughput, results.Target(rate)), Pass: t.Throughput >= share*rate, Bound: share * rate, Unit: "ops/s"},
	)
	pass := res.Outcome == results.Completed
	for _, tm := range terms {
		pass = pass && tm.Pass
	}
	return terms, pass, nil
}

// Failed is the text of the terms that failed, with their measurements.
func Failed(terms []results.Term) []string {
	var out []string
	for _, t := range terms {
		if !t.Pass {
			out = append(out, fmt.Sprintf("%s (measured %s)", t.Text, t.Shown))
		}
	}
	return out
}
