package ab

import (
	"context"
	"fmt"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/insights"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/replay"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/run"
	"github.com/mongoload/mongoload/internal/trace"
	"github.com/mongoload/mongoload/internal/workload"
)

// trafficexplain.go: each shape of the trace explained on a side (its
// first operation, with its own values), and a shape slower only beside
// another whose plan changed timed again on its own, with the trace's own
// operations of it.

// explainTraffic explains the first operation of each shape on one side.
func explainTraffic(ctx context.Context, s *run.Session, t *replay.Trace) []*results.Explain {
	out := make([]*results.Explain, len(s.Plan().Ops))
	left := len(out)
	_ = t.Each(func(e trace.Entry, cmd bson.Raw, sh *replay.Shape) bool {
		if out[sh.Index] == nil {
			x := insights.ExplainReplayed(ctx, s.Client(), sh.NS, cmd)
			out[sh.Index] = &x
			left--
		}
		return left > 0 && ctx.Err() == nil
	})
	return out
}

// trafficCollateral is collateral's for the trace: each shape flagged
// without a plan change of its own, when another's plan changed and it was
// flagged, is timed again alone on both sides (A and B alternating at each
// operation) and keeps its flag only if it shows there too.
func (x *comparison) trafficCollateral(ctx context.Context, a, b *run.Session, t *replay.Trace, ab *results.AB) {
	if ab.A.Failed != "" || ab.B.Failed != "" || ctx.Err() != nil {
		return
	}
	ea, errA := a.Client().Executors(a.Plan())
	eb, errB := b.Client().Executors(b.Plan())
	if errA != nil || errB != nil {
		return
	}
	alone := x.unsteady(ctx, ea, eb, t, ab)
	blamed := culprits(ab)
	if len(blamed) == 0 {
		return
	}
	for i := range ab.Operations {
		o := &ab.Operations[i]
		if !bystander(o) || alone[i] || (o.ErrorsOnlyOn != "" && !backlogOnly(o)) {
			continue
		}
		backlog := o.ErrorsOnlyOn != ""
		ha, hb, err := isolateReplayed(ctx, ea[i], eb[i], commandsOf(t, i, isolateBlocks*isolatePerBlock))
		x.judgeAlone(o, blamed, ha, hb, err)
		if o.Collateral && backlog {
			o.Why += fmt.Sprintf("; its %s on B came in the rounds only, behind the others", classes(o.ResultB.ErrorsByClass))
			o.ErrorsOnlyOn = ""
		}
	}
}

// backlogOnly: a shape's errors are on the candidate only and are all
// timeouts: operations that waited behind others (a side that fell behind
// the trace's pace), which the shape timed on its own may not show.
func backlogOnly(o *results.ABOperation) bool {
	if o.ErrorsOnlyOn != "B" || len(o.ResultB.ErrorsByClass) == 0 {
		return false
	}
	for c := range o.ResultB.ErrorsByClass {
		if c != mongodb.ClassTimeout {
			return false
		}
	}
	return true
}

// unsteady times on its own each shape that the rounds showed beyond the
// threshold but not steadily (not flagged): at the trace's pace a side
// behind the schedule makes each round's latencies its backlog's, which
// varies from round to round far more than the shape's own cost. Timed
// alone (A and B alternating at each operation), a shape beyond the
// threshold there too is flagged, with both figures. It returns the shapes
// so flagged.
func (x *comparison) unsteady(ctx context.Context, ea, eb []*mongodb.Executor, t *replay.Trace, ab *results.AB) map[int]bool {
	flagged := map[int]bool{}
	up := 1 + x.Judge.Threshold
	for i := range ab.Operations {
		o := &ab.Operations[i]
		if o.Flag != results.FlagNone || o.FailedOnBoth || o.ErrorsOnlyOn != "" || (o.Shift < up && o.Shift > 1/up) || ctx.Err() != nil {
			continue
		}
		ha, hb, err := isolateReplayed(ctx, ea[i], eb[i], commandsOf(t, i, isolateBlocks*isolatePerBlock))
		if err != nil {
			continue
		}
		if j := JudgeShape(ha, hb, x.Judge); j.Flag != results.FlagNone {
			o.Flag, flagged[i] = j.Flag, true
			o.Why = fmt.Sprintf("%.2fx in the rounds at the trace's pace, not steadily (p = %.2g, rounds %v: each round's backlog its own); on its own, one operation at a time: %s",
				o.Shift, o.P, o.RoundShifts, j.Why)
		}
	}
	return flagged
}

// commandsOf are up to n of the trace's commands of shape i, in order.
func commandsOf(t *replay.Trace, i, n int) []bson.Raw {
	var out []bson.Raw
	_ = t.Each(func(_ trace.Entry, cmd bson.Raw, sh *replay.Shape) bool {
		if sh.Index == i {
			out = append(out, append(bson.Raw(nil), cmd...))
		}
		return len(out) < n
	})
	return out
}

// isolateReplayed times cmds (cycled to fill the blocks) alone on both
// sides, A and B alternating at each operation, into isolateBlocks
// histograms per side.
func isolateReplayed(ctx context.Context, exA, exB *mongodb.Executor, cmds []bson.Raw) (ha, hb []*hdrhistogram.Histogram, err error) {
	if len(cmds) == 0 {
		return nil, nil, fmt.Errorf("the trace holds no operation of it")
	}
	timed := func(e *mongodb.Executor, cmd bson.Raw, h *hdrhistogram.Histogram) error {
		ctx, cancel := context.WithTimeout(ctx, verifyTimeout)
		defer cancel()
		start := time.Now()
		_, err := e.Do(ctx, &workload.Request{Command: cmd})
		_ = h.RecordValue(metrics.Micros(time.Since(start)))
		return err
	}
	k := 0
	for blk := 0; blk < isolateBlocks; blk++ {
		xa, xb := metrics.NewHistogram(), metrics.NewHistogram()
		for j := 0; j < isolatePerBlock; j++ {
			if ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			cmd := cmds[k%len(cmds)]
			k++
			if err := inTurn(j, func() error { return timed(exA, cmd, xa) }, func() error { return timed(exB, cmd, xb) }); err != nil {
				return nil, nil, err
			}
		}
		ha, hb = append(ha, xa), append(hb, xb)
	}
	return ha, hb, nil
}
