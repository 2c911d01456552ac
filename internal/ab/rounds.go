package ab

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/engine"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/run"
)

// rounds measures every round, in ABOrder (or both sides at once with
// Parallel); a side that stops answering ends the rounds, which are kept.
func (x *comparison) rounds(ctx context.Context, a, b *run.Session, ab *results.AB) ([]results.ABRun, error) {
	log := x.log
	var runs []results.ABRun
	side := map[string]*run.Session{"A": a, "B": b}
	cfgOf := map[string]*config.Config{"A": roundConfig(x.sides[0].cfg), "B": roundConfig(x.sides[1].cfg)}
	measure := func(name string, round int) (*run.Result, error) {
		// run.Step: both sides draw the same operations in a round, each
		// round its own (round 1 the run's seed); a round that drew the
		// last one's would insert the _ids it inserted (an insert's _id
		// follows the operation seed), and fail.
		r, err := side[name].Run(ctx, run.Step(cfgOf[name], round-1))
		if err == nil && x.OnRun != nil {
			x.OnRun(name, round, r)
		}
		return r, err
	}
	lost := func(name, why string) {
		if name == "A" {
			ab.A.Failed = why
		} else {
			ab.B.Failed = why
		}
	}
	record := func(name string, round int, r *run.Result, err error) error {
		if err != nil {
			return fmt.Errorf("side %s, round %d: %w", name, round, err)
		}
		runs = append(runs, results.ABRun{Side: name, Round: round, Result: r.Result})
		if r.Outcome == engine.ServerLost {
			lost(name, fmt.Sprintf("stopped answering in round %d: %s", round, r.Reason))
			return fmt.Errorf("side %s: %w", name, r.Err())
		}
		if r.Outcome == engine.Interrupted {
			return r.Err()
		}
		if t := r.Result.Totals; t.Operations == 0 {
			// Not given up for lost by the run (each operation failed, or
			// hung until the grace period abandoned it): a side that does
			// not answer a hello now is lost, as the run would have said.
			if err := side[name].Answers(ctx); err != nil && ctx.Err() == nil {
				lost(name, fmt.Sprintf("stopped answering in round %d: %v", round, err))
				return fail(run.ServerLost, fmt.Errorf("side %s stopped answering in round %d: %w", name, round, err))
			}
			// It answers, but answered no operation: measured through,
			// said, and the rounds end here.
			why := fmt.Sprintf("answered no operation in round %d (outcome %s, %s errors", round, r.Result.Outcome, results.Thousands(t.Errors))
			if len(t.ErrorsByClass) > 0 {
				why += ": " + classes(t.ErrorsByClass)
			}
			lost(name, why+")")
			return errSideFailed
		}
		return nil
	}
	for round := 1; round <= x.Rounds; round++ {
		if x.Parallel {
			fmt.Fprintf(log, "round %d of %d: A and B at once\n", round, x.Rounds)
			var wg sync.WaitGroup
			var ra, rb *run.Result
			var ea, eb error
			wg.Add(2)
			go func() { defer wg.Done(); ra, ea = measure("A", round) }()
			go func() { defer wg.Done(); rb, eb = measure("B", round) }()
			wg.Wait()
			if err := errors.Join(record("A", round, ra, ea), record("B", round, rb, eb)); err != nil {
				return runs, ignoreFailed(err)
			}
			continue
		}
		order := ABOrder(x.Rounds)[2*(round-1) : 2*round]
		fmt.Fprintf(log, "round %d of %d: %s then %s\n", round, x.Rounds, order[0], order[1])
		for _, name := range order {
			r, err := measure(name, round)
			if err := record(name, round, r, err); err != nil {
				return runs, ignoreFailed(err)
			}
		}
	}
	return runs, nil
}

// errSideFailed ends the rounds when a side answered nothing in one: the
// side is named in the file, and the comparison is not an error.
var errSideFailed = errors.New("a side answered nothing")

// ignoreFailed drops errSideFailed from err (a parallel round joins both
// sides' errors; the other's stays).
func ignoreFailed(err error) error {
	if errors.Is(err, errSideFailed) {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			var rest []error
			for _, e := range j.Unwrap() {
				if !errors.Is(e, errSideFailed) {
					rest = append(rest, e)
				}
			}
			return errors.Join(rest...)
		}
		return nil
	}
	return err
}

// roundConfig is a side's configuration for its measured runs: quiet, no
// results file of its own (the A/B file holds every run), no slow-shape
// explain (each shape is explained on both sides once, before the rounds).
func roundConfig(cfg *config.Config) *config.Config {
	c := *cfg
	c.Run.Out, c.Run.Quiet, c.Run.Explain = "", true, 0
	return &c
}
