package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/mongoload/mongoload/internal/analysis"
	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/engine"
	"github.com/mongoload/mongoload/internal/insights"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/workload"
)

// AB is one A/B comparison: the same workload on a baseline (A) and a
// candidate (B), each side a Session, measured in alternating rounds.
type AB struct {
	A, B         Side
	Rounds       int  // measured runs per side
	Parallel     bool // both sides at once each round (open loop)
	VerifyShapes int  // operations verified per shape before the rounds
	// AllowSame lets both sides be one deployment (an A/A run); without
	// it, two URIs of one deployment are refused.
	AllowSame bool
	Judge     analysis.ABOptions
	Opts      Options // Log and Version; each side's sessions are quiet
	// OnRun, if set, is told each measured run as it ends.
	OnRun func(side string, round int, r *Result)
}

// Side is one deployment's configuration and plan (compiled on its own:
// each side keeps its own key spaces).
type Side struct {
	Cfg  *config.Config
	Plan *workload.Plan
}

// ABOrder is the order of the sides over rounds: A B, B A, A B, ... so
// that drift of the host weighs on both alike.
func ABOrder(rounds int) []string {
	var out []string
	for r := 0; r < rounds; r++ {
		if r%2 == 0 {
			out = append(out, "A", "B")
		} else {
			out = append(out, "B", "A")
		}
	}
	return out
}

// RunAB opens both sides (connect, setup under each side's ownership rule,
// seed), compares their data, verifies a sample of the operation sequence
// on both, explains every shape on both, measures the rounds and judges
// each shape. The file comes back whenever the comparison got as far as
// measuring, with the error that ended it (a side lost: measured through).
func RunAB(ctx context.Context, x AB) (*results.AB, error) {
	log := x.Opts.log()
	ab := &results.AB{Tool: results.Tool{Name: "mongoload", Version: x.Opts.Version}, StartedAt: time.Now(),
		Workload: results.Workload{Name: x.A.Cfg.Name, Source: x.A.Cfg.Source},
		A:        results.ABSide{Label: "A (baseline)", URI: config.RedactURI(x.A.Cfg.Connection.URI)},
		B:        results.ABSide{Label: "B (candidate)", URI: config.RedactURI(x.B.Cfg.Connection.URI)},
		Method: results.ABMethod{Rounds: x.Rounds, Order: ABOrder(x.Rounds), Parallel: x.Parallel,
			OperationSeed: x.A.Cfg.Run.OperationSeed, RandomSeed: x.A.Cfg.Run.RandomSeed, Seeded: Seeds(x.A.Cfg),
			Threshold: x.Judge.Threshold, Alpha: x.Judge.Alpha, Test: analysis.ABTest, Verify: x.VerifyShapes},
		Sentences: []string{}, Runs: []results.ABRun{}}
	if x.Parallel {
		ab.Method.Order = nil
	}
	if err := x.checkDistinct(ctx); err != nil {
		return nil, err
	}
	sides := [2]*Session{}
	for i, s := range []Side{x.A, x.B} {
		name := [2]string{"A", "B"}[i]
		fmt.Fprintf(log, "side %s: %s\n", name, config.RedactURI(s.Cfg.Connection.URI))
		opts := x.Opts
		opts.Log = prefixed(log, "side "+name+": ")
		sess, err := Open(ctx, s.Cfg, s.Plan, opts)
		if err != nil {
			closeAll(sides)
			return nil, fmt.Errorf("side %s: %w", name, err)
		}
		sess.Quiet()
		sides[i] = sess
	}
	defer closeAll(sides)
	a, b := sides[0], sides[1]

	var err error
	if ab.Data, err = checkData(ctx, a, b); err != nil {
		return nil, err
	}
	if diff := dataDiffs(ab.Data); diff != "" {
		if !ab.Method.Seeded {
			return nil, fail(DataDiffer, fmt.Errorf("the two sides hold different data: %s; load both alike (mongoload load with the same --random-seed), or let ab seed both with --seed and --random-seed", diff))
		}
		ab.Notes = append(ab.Notes, "the sides' data differ though mongoload seeded both: "+diff+"; the verified results say which operations it changes")
	}

	fmt.Fprintf(log, "verifying results: up to %d operations of each shape, one at a time on A then B\n", x.VerifyShapes)
	ver, n, err := verify(ctx, a, b, x.VerifyShapes, x.A.Cfg.Run.OperationSeed)
	ab.Method.Verified = n
	if err != nil {
		return nil, err
	}
	explainA, explainB := explain(ctx, a, x.A.Cfg.Run.OperationSeed), explain(ctx, b, x.A.Cfg.Run.OperationSeed)

	runs, runErr := x.rounds(ctx, a, b, ab)
	ab.Runs = runs
	judge(ab, x, ver, explainA, explainB)
	if runErr == nil {
		x.collateral(ctx, a, b, ab)
	}
	verdict(ab)
	ab.EndedAt = time.Now()
	return ab, runErr
}

// checkDistinct refuses two URIs of one deployment (localhost and
// 127.0.0.1, two members of one replica set) unless AllowSame, before
// either side is set up or seeded: the command line only sees the same
// text twice. A side that cannot be reached or say who it is is left to
// Open, which says why.
func (x AB) checkDistinct(ctx context.Context) error {
	if x.AllowSame {
		return nil
	}
	var ids [2]mongodb.Deployment
	for i, s := range []Side{x.A, x.B} {
		c, err := Connect(ctx, io.Discard, s.Cfg, mongodb.ConnectOptions{})
		if err != nil {
			return nil
		}
		ids[i], err = c.Deployment(ctx)
		c.Close()
		if err != nil {
			return nil
		}
	}
	if ids[0].Same(ids[1]) {
		return fail(Usage, errors.New("--uri and --candidate-uri reach the same deployment: an A/A run (which shows the comparison's own noise: it should flag nothing) needs --allow-same"))
	}
	return nil
}

// explain explains one request of each shape on one side (drawn from the
// side's own plan, so no key space moves): nil where a shape has none.
func explain(ctx context.Context, s *Session, seed uint64) []*results.Explain {
	out := make([]*results.Explain, len(s.plan.Ops))
	for i, smp := range samples(s.plan, seed) {
		if smp != nil {
			e := insights.Explain(ctx, s.client, []insights.Sample{*smp})[0]
			out[i] = &e
		}
	}
	return out
}

// rounds measures every round, in ABOrder (or both sides at once with
// Parallel); a side that stops answering ends the rounds, which are kept.
func (x AB) rounds(ctx context.Context, a, b *Session, ab *results.AB) ([]results.ABRun, error) {
	log := x.Opts.log()
	var runs []results.ABRun
	side := map[string]*Session{"A": a, "B": b}
	cfgOf := map[string]*config.Config{"A": roundConfig(x.A.Cfg), "B": roundConfig(x.B.Cfg)}
	measure := func(name string, round int) (*Result, error) {
		r, err := side[name].Run(ctx, cfgOf[name])
		if err == nil && x.OnRun != nil {
			x.OnRun(name, round, r)
		}
		return r, err
	}
	record := func(name string, round int, r *Result, err error) error {
		if err != nil {
			return fmt.Errorf("side %s, round %d: %w", name, round, err)
		}
		runs = append(runs, results.ABRun{Side: name, Round: round, Result: r.Result})
		if r.Outcome == engine.ServerLost {
			why := fmt.Sprintf("stopped answering in round %d: %s", round, r.Reason)
			if name == "A" {
				ab.A.Failed = why
			} else {
				ab.B.Failed = why
			}
			return fmt.Errorf("side %s: %w", name, r.Err())
		}
		if r.Outcome == engine.Interrupted {
			return r.Err()
		}
		if t := r.Result.Totals; t.Operations == 0 {
			// Not given up for lost (each operation failed, or hung until
			// the grace period abandoned it), but it answered nothing:
			// measured through, said, and the rounds end here.
			why := fmt.Sprintf("answered no operation in round %d (outcome %s, %s errors", round, r.Result.Outcome, results.Thousands(t.Errors))
			if len(t.ErrorsByClass) > 0 {
				why += ": " + classes(t.ErrorsByClass)
			}
			why += ")"
			if name == "A" {
				ab.A.Failed = why
			} else {
				ab.B.Failed = why
			}
			return errSideFailed
		}
		return nil
	}
	for round := 1; round <= x.Rounds; round++ {
		if x.Parallel {
			fmt.Fprintf(log, "round %d of %d: A and B at once\n", round, x.Rounds)
			var wg sync.WaitGroup
			var ra, rb *Result
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

func closeAll(sides [2]*Session) {
	for _, s := range sides {
		if s != nil {
			s.Close()
		}
	}
}

// prefixed writes each line to w with a prefix, so that both sides'
// progress lines say whose they are.
func prefixed(w io.Writer, prefix string) io.Writer { return &prefixWriter{w: w, prefix: prefix} }

type prefixWriter struct {
	mu     sync.Mutex
	w      io.Writer
	prefix string
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, err := p.w.Write(append([]byte(p.prefix), b...)); err != nil {
		return 0, err
	}
	return len(b), nil
}
