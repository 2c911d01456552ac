package ab

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/generate"
	"github.com/mongoload/mongoload/internal/insights"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/run"
	"github.com/mongoload/mongoload/internal/workload"
)

// abverify.go: before the timed rounds, a sample of the operation sequence
// runs one operation at a time on both sides, in the same order (writes
// too, so the sides stay identical), and their results are compared
// (pt-upgrade's idea).

// verified is what verification found for one shape.
type verified struct {
	n, diffs  int
	countOnly bool
	first     []results.ABDiff // up to maxDiffs
	// emptyA and emptyB count the operations that returned or matched
	// nothing (nothingDone), on each side (both answered); bothEmpty those
	// that did so on both: nothing was compared there.
	emptyA, emptyB, bothEmpty int
}

const maxDiffs = 5

// verifyTimeout bounds one verified operation on one side.
const verifyTimeout = 30 * time.Second

// verify draws the operation sequence (seeded as the runs are) from each
// side's plan and runs each operation on A, then on B, until every shape
// ran perShape times (or the draws run out: a shape the mix rarely picks).
func verify(ctx context.Context, a, b *run.Session, perShape int, seed uint64) ([]verified, int, error) {
	ea, err := a.Client().Executors(a.Plan())
	if err != nil {
		return nil, 0, err
	}
	eb, err := b.Client().Executors(b.Plan())
	if err != nil {
		return nil, 0, err
	}
	out := make([]verified, len(a.Plan().Ops))
	sa, sb := generate.NewState(seed, 1<<41), generate.NewState(seed, 1<<41)
	var ra, rb workload.Request
	defer ra.Release()
	defer rb.Release()
	total, draws := 0, perShape*len(a.Plan().Ops)*20
	for d := 0; d < draws && !allVerified(out, perShape, a.Plan()); d++ {
		i := a.Plan().Mix.Pick(sa.Rand)
		b.Plan().Mix.Pick(sb.Rand)
		ra.Build(a.Plan().Ops[i], sa)
		rb.Build(b.Plan().Ops[i], sb)
		if out[i].n >= perShape {
			continue // drawn all the same, so both sides' sequences stay one
		}
		if ctx.Err() != nil {
			return out, total, fail(run.Interrupted, fmt.Errorf("interrupted while verifying results"))
		}
		// One request, drawn once, to both sides: the same document (its
		// _id included) and values on each. B's own draw only keeps its
		// key spaces in step with A's for the rounds.
		oa, errA := outcome(ctx, ea[i], &ra)
		ob, errB := outcome(ctx, eb[i], &ra)
		if err := answering(ctx, a, errA, "A"); err != nil {
			return out, total, err
		}
		if err := answering(ctx, b, errB, "B"); err != nil {
			return out, total, err
		}
		v := &out[i]
		v.n++
		total++
		v.countEmpty(a.Plan().Ops[i], oa, errA, ob, errB)
		diff, countOnly := compareOutcomes(a.Plan().Ops[i], &ra, oa, errA, ob, errB)
		v.countOnly = v.countOnly || countOnly
		if diff != nil {
			v.diffs++
			if len(v.first) < maxDiffs {
				diff.Seq = total
				v.first = append(v.first, *diff)
			}
		}
	}
	return out, total, nil
}

// sideLost: a side stopped answering while its results were verified: it
// is lost, as a side that stops answering in the rounds is.
type sideLost struct {
	side string
	err  error
}

func (e *sideLost) Error() string {
	return fmt.Sprintf("side %s stopped answering while verifying results: %v", e.side, e.err)
}
func (e *sideLost) Unwrap() error { return e.err }

// answering asks a side whose operation failed as an unreachable server
// fails whether it answers at all (a hello, within the time a run gives a
// silent server): the next operation would wait out server selection
// again, and a hundred of them take the better part of an hour.
func answering(ctx context.Context, s *run.Session, err error, name string) error {
	if err == nil || !mongodb.IsUnavailable(err) || ctx.Err() != nil {
		return nil
	}
	if err := s.Answers(ctx); err != nil && ctx.Err() == nil {
		return &sideLost{side: name, err: err}
	}
	return nil
}

func allVerified(v []verified, perShape int, plan *workload.Plan) bool {
	for i := range v {
		if v[i].n < perShape && plan.Ops[i].Weight > 0 {
			return false
		}
	}
	return true
}

func outcome(ctx context.Context, e *mongodb.Executor, r *workload.Request) (mongodb.Outcome, error) {
	ctx, cancel := context.WithTimeout(ctx, verifyTimeout)
	defer cancel()
	return e.Outcome(ctx, r)
}

// samples draws the operation sequence (without running it) until every
// shape has a request to explain, and copies the first of each.
func samples(plan *workload.Plan, seed uint64) []*insights.Sample {
	out := make([]*insights.Sample, len(plan.Ops))
	st := generate.NewState(seed, 1<<41)
	var r workload.Request
	defer r.Release()
	for d, left := 0, len(plan.Ops); d < 1000*len(plan.Ops) && left > 0; d++ {
		i := plan.Mix.Pick(st.Rand)
		if out[i] != nil {
			continue
		}
		r.Build(plan.Ops[i], st)
		out[i] = sampleOf(plan.Ops[i], &r)
		left--
		r.Release()
	}
	return out
}

// sampleOf copies the request (insights.SampleOf), to explain the shape on
// both sides; nil for what explain cannot show.
func sampleOf(op *workload.Op, r *workload.Request) *insights.Sample {
	if op.Kind == workload.Transaction || op.Kind == workload.InsertOne || op.Kind == workload.InsertMany {
		// no plan: insights.Explain says why, and sends nothing
		return &insights.Sample{Type: op.Type, Kind: op.Kind}
	}
	if op.Collection == nil {
		return nil
	}
	smp := insights.SampleOf(op, r)
	s := &smp
	if s.Filter == nil {
		s.Filter = bson.Raw{5, 0, 0, 0, 0}
	}
	return s
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
