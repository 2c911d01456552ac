package ab

import (
	"fmt"
	"strings"

	"github.com/mongoload/mongoload/internal/results"
)

// tail.go: each round's tail, on each side. An aggregate p99 over every
// round can be one round's alone (the host busy for a moment while that
// side ran): the picture then shows a side's tail that the side did not
// make. The rank test and the rounds' t-test see through it; a reader
// looking at the drawing does not, so it is said beside it.

// perRound is one operation's count, p50 and p99 in each round on each
// side, in the order the rounds ran.
func perRound(runs []results.ABRun, name string) []results.ABRoundTail {
	out := []results.ABRoundTail{}
	for _, r := range runs {
		if r.Result == nil {
			continue
		}
		t := results.ABRoundTail{Round: r.Round, Side: r.Side}
		for _, o := range r.Result.Operations {
			if o.Name == name {
				t.Count, t.P50, t.P99 = o.Count, o.Latency.P50, o.Latency.P99
			}
		}
		out = append(out, t)
	}
	return out
}

// tailText says, for each side whose aggregate p99 one round alone makes
// (that round's p99 at least ABTailFactor times every other round's), which
// round and by how much; "" when no side's is.
func tailText(o *results.ABOperation) string {
	var parts []string
	for _, side := range []struct {
		name string
		p99  float64
	}{{"A", o.ResultA.Latency.P99}, {"B", o.ResultB.Latency.P99}} {
		var rounds []results.ABRoundTail
		for _, t := range o.PerRound {
			if t.Side == side.name && t.Count > 0 {
				rounds = append(rounds, t)
			}
		}
		if s := oneRoundTail(side.name, side.p99, rounds); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "; ")
}

// oneRoundTail is the sentence for one side's rounds, or "".
func oneRoundTail(side string, aggregate float64, rounds []results.ABRoundTail) string {
	if len(rounds) < 2 {
		return ""
	}
	top, rest := 0, 0.0
	for i, t := range rounds {
		if t.P99 > rounds[top].P99 {
			top = i
		}
	}
	for i, t := range rounds {
		if i != top {
			rest = max(rest, t.P99)
		}
	}
	worst := rounds[top]
	if rest <= 0 || worst.P99 < results.ABTailFactor*rest || aggregate < 1.5*rest {
		return ""
	}
	return fmt.Sprintf("%s's p99 (%s over every round) is round %d's alone: %s there, %s every other round's (at most %s): one round's tail (the host busy while it ran), not the side's",
		side, msText(aggregate), worst.Round, msText(worst.P99), times(results.Round3(worst.P99/rest)), msText(rest))
}
