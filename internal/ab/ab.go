package ab

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/insights"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/run"
)

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

// Run opens both sides (connect, setup under each side's ownership rule,
// seed), compares their data, verifies a sample of the operation sequence
// on both, explains every shape on both, measures the rounds and judges
// each shape. The file comes back whenever the comparison got as far as
// measuring, with the error that ended it (a side lost: measured through).
func Run(ctx context.Context, o Options) (*results.AB, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	x, err := newComparison(o)
	if err != nil {
		return nil, err
	}
	log := x.log
	cfgA := x.sides[0].cfg
	ab := &results.AB{Tool: results.Tool{Name: "mongoload", Version: o.Version}, StartedAt: time.Now(),
		Workload: results.Workload{Name: cfgA.Name, Source: cfgA.Source},
		A:        results.ABSide{Label: "A (baseline)", URI: config.RedactURI(cfgA.Connection.URI)},
		B:        results.ABSide{Label: "B (candidate)", URI: config.RedactURI(x.sides[1].cfg.Connection.URI)},
		Method: results.ABMethod{Rounds: o.Rounds, Order: ABOrder(o.Rounds), Parallel: o.Parallel,
			OperationSeed: cfgA.Run.OperationSeed, RandomSeed: cfgA.Run.RandomSeed, Seeded: run.Seeds(cfgA),
			Threshold: o.Judge.Threshold, Alpha: o.Judge.Alpha, Test: ABTest, Verify: o.Verify},
		Sentences: []string{}, Runs: []results.ABRun{}}
	if o.Parallel {
		ab.Method.Order = nil
	}
	if err := x.checkDistinct(ctx); err != nil {
		return nil, err
	}
	for _, s := range x.sides { // every refusal before either side is changed
		fmt.Fprintf(log, "side %s: %s\n", s.name, config.RedactURI(s.cfg.Connection.URI))
		if err := run.CheckSetup(ctx, prefixed(log, "side "+s.name+": "), s.cfg, s.plan); err != nil {
			return nil, fmt.Errorf("side %s: %w", s.name, err)
		}
	}
	if !ab.Method.Seeded && !cfgA.Run.Drop { // nothing will make the sides alike: refused before either is set up
		if err := x.checkDataFirst(ctx); err != nil {
			return nil, err
		}
	}
	sessions, err := x.open(ctx, func(name string) run.Options {
		return run.Options{Log: prefixed(log, "side "+name+": "), Version: o.Version, Inputs: o.Inputs}
	})
	if err != nil {
		return nil, err
	}
	defer closeAll(sessions)
	a, b := sessions[0], sessions[1]

	if ab.Data, err = checkData(ctx, a.Client(), b.Client(), a.Plan().Collections); err != nil {
		return nil, err
	}
	if err := checkIndexes(ctx, a, b, ab.Data); err != nil {
		return nil, err
	}
	for _, s := range ab.IndexDiffs() {
		fmt.Fprintln(log, s)
	}
	if diff := dataDiffs(ab.Data); diff != "" {
		if !ab.Method.Seeded {
			return nil, differ(diff)
		}
		ab.Notes = append(ab.Notes, "the sides' data differ though mongoload seeded both: "+diff+"; the verified results say which operations it changes")
	}

	fmt.Fprintf(log, "verifying results: up to %d operations of each shape, one at a time on A then B\n", o.Verify)
	ver, n, err := verify(ctx, a, b, o.Verify, cfgA.Run.OperationSeed)
	ab.Method.Verified = n
	if lost := (*sideLost)(nil); errors.As(err, &lost) { // said and written, as a side lost in the rounds
		why := "stopped answering while verifying results: " + lost.err.Error()
		if lost.side == "A" {
			ab.A.Failed = why
		} else {
			ab.B.Failed = why
		}
		none := make([]*results.Explain, len(x.sides[0].plan.Ops))
		judge(ab, x, ver, none, none)
		verdict(ab)
		ab.EndedAt = time.Now()
		return ab, fail(run.ServerLost, err)
	}
	if err != nil {
		return nil, err
	}
	explainA, explainB := explain(ctx, a, cfgA.Run.OperationSeed), explain(ctx, b, cfgA.Run.OperationSeed)

	runs, runErr := x.rounds(ctx, a, b, ab)
	ab.Runs = runs
	judge(ab, x, ver, explainA, explainB)
	if note := emptyNote(ab, len(cfgA.CapturedFrom) > 0); note != "" {
		ab.Notes = append(ab.Notes, note)
	}
	if runErr == nil {
		x.collateral(ctx, a, b, ab)
	}
	verdict(ab)
	ab.EndedAt = time.Now()
	return ab, runErr
}

// comparison is a comparison under way: its options and both sides.
type comparison struct {
	Options
	sides [2]side
	log   io.Writer
}

func newComparison(o Options) (*comparison, error) {
	sides, err := o.sides()
	if err != nil {
		return nil, err
	}
	log := o.Log
	if log == nil {
		log = io.Discard
	}
	return &comparison{Options: o, sides: sides, log: log}, nil
}

// explain explains one request of each shape on one side (drawn from the
// side's own plan, so no key space moves): nil where a shape has none.
func explain(ctx context.Context, s *run.Session, seed uint64) []*results.Explain {
	out := make([]*results.Explain, len(s.Plan().Ops))
	for i, smp := range samples(s.Plan(), seed) {
		if smp != nil {
			e := insights.Explain(ctx, s.Client(), []insights.Sample{*smp})[0]
			out[i] = &e
		}
	}
	return out
}

// open opens both sides' sessions, quiet, each with the options optsFor
// gives it; when one fails, the other is closed.
func (x *comparison) open(ctx context.Context, optsFor func(name string) run.Options) ([2]*run.Session, error) {
	var sessions [2]*run.Session
	for i, s := range x.sides {
		sess, err := run.Open(ctx, s.cfg, s.plan, optsFor(s.name))
		if err != nil {
			closeAll(sessions)
			return sessions, fmt.Errorf("side %s: %w", s.name, err)
		}
		sess.Quiet()
		sessions[i] = sess
	}
	return sessions, nil
}

func closeAll(sides [2]*run.Session) {
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
