package ab

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongoload/mongoload/internal/generate"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/run"
	"github.com/mongoload/mongoload/internal/workload"
)

// abisolate.go: a shape that changed plan and regressed (a collection scan
// where an index was) slows the other shapes of its side too, through the
// server and the host they share: on a busy host the side that scans gets
// the CPU back later. Those others are slower in the mix, yet nothing of
// theirs changed. Before one is flagged, it is measured again on its own:
// one operation at a time, A and B alternating at each operation (so the
// host's drift cancels at the finest grain), in blocks that stand for
// rounds. Only a shape still slower on its own keeps its flag.

const (
	isolateBlocks   = 8  // replicates of the isolated measurement
	isolatePerBlock = 25 // operations of the shape per block and side
)

// collateral re-measures each shape flagged a regression without a plan
// change of its own, when another shape's plan changed and regressed; a
// shape within the threshold on its own loses its flag, and says why.
func (x *comparison) collateral(ctx context.Context, a, b *run.Session, ab *results.AB) {
	var culprits []string
	for _, o := range ab.Operations {
		if o.Flag == results.FlagRegression && o.PlanChanged {
			culprits = append(culprits, o.Name)
		}
	}
	if len(culprits) == 0 || ab.A.Failed != "" || ab.B.Failed != "" || ctx.Err() != nil {
		return
	}
	ea, errA := a.Client().Executors(a.Plan())
	eb, errB := b.Client().Executors(b.Plan())
	if errA != nil || errB != nil {
		return
	}
	for i := range ab.Operations {
		o := &ab.Operations[i]
		if o.Flag != results.FlagRegression || o.PlanChanged || o.ErrorsOnlyOn != "" {
			continue
		}
		ha, hb, err := isolate(ctx, a.Plan().Ops[i], ea[i], b.Plan().Ops[i], eb[i], x.sides[0].cfg.Run.OperationSeed, i)
		if err != nil {
			o.Why += "; not measured on its own: " + err.Error()
			continue
		}
		j := JudgeShape(ha, hb, x.Judge)
		if j.Flag == results.FlagRegression {
			o.Why += fmt.Sprintf("; on its own too: %s", j.Why)
			continue
		}
		o.Flag = results.FlagNone
		o.Collateral = true
		o.Why = fmt.Sprintf("slower only beside %s, whose plan changed (%.2fx in the rounds); on its own, one operation at a time, %s",
			strings.Join(culprits, ", "), o.Shift, j.Why)
	}
}

// isolate times op alone on both sides, A and B alternating at each
// operation (which goes first alternating too), into isolateBlocks
// histograms per side.
// Each shape draws from a stream of its own (1<<42 + its index): two insert
// shapes measured on their own would otherwise insert the same _ids.
func isolate(ctx context.Context, opA *workload.Op, exA *mongodb.Executor, opB *workload.Op, exB *mongodb.Executor, seed uint64, index int) (ha, hb []*hdrhistogram.Histogram, err error) {
	stream := uint64(1)<<42 + uint64(index)
	sa, sb := generate.NewState(seed, stream), generate.NewState(seed, stream)
	var ra, rb workload.Request
	defer ra.Release()
	defer rb.Release()
	timed := func(e *mongodb.Executor, r *workload.Request, h *hdrhistogram.Histogram) error {
		ctx, cancel := context.WithTimeout(ctx, verifyTimeout)
		defer cancel()
		start := time.Now()
		_, err := e.Do(ctx, r)
		_ = h.RecordValue(metrics.Micros(time.Since(start)))
		return err
	}
	for blk := 0; blk < isolateBlocks; blk++ {
		xa, xb := metrics.NewHistogram(), metrics.NewHistogram()
		for k := 0; k < isolatePerBlock; k++ {
			if ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			ra.Build(opA, sa)
			rb.Build(opB, sb)
			if err := inTurn(k, func() error { return timed(exA, &ra, xa) }, func() error { return timed(exB, &rb, xb) }); err != nil {
				return nil, nil, err
			}
		}
		ha, hb = append(ha, xa), append(hb, xb)
	}
	return ha, hb, nil
}

// inTurn runs a then b, or b then a on odd turns, so that neither side
// always goes first (and finds the host as the other left it).
func inTurn(turn int, a, b func() error) error {
	if turn%2 == 1 {
		a, b = b, a
	}
	if err := a(); err != nil {
		return err
	}
	return b()
}
