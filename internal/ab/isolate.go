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

// abisolate.go: a shape whose plan changed (a collection scan where an
// index was) moves the other shapes of its side too, through the server and
// the host they share: on a busy host the side that scans gets the CPU back
// later, and on a quiet one the busier side answers the light shapes
// sooner. Those others are slower or faster in the mix, yet nothing of
// theirs changed. Before one is flagged, it is measured again on its own:
// one operation at a time, A and B alternating at each operation (so the
// host's drift cancels at the finest grain), in blocks that stand for
// rounds. Only a shape that shows the same difference on its own keeps its
// flag.

const (
	isolateBlocks   = 8  // replicates of the isolated measurement
	isolatePerBlock = 25 // operations of the shape per block and side
)

// collateral re-measures each shape flagged without a plan change of its
// own, when another shape's plan changed and it was flagged; a shape within
// the threshold on its own loses its flag, and says why.
func (x *comparison) collateral(ctx context.Context, a, b *run.Session, ab *results.AB) {
	blamed := culprits(ab)
	if len(blamed) == 0 || ab.A.Failed != "" || ab.B.Failed != "" || ctx.Err() != nil {
		return
	}
	ea, errA := a.Client().Executors(a.Plan())
	eb, errB := b.Client().Executors(b.Plan())
	if errA != nil || errB != nil {
		return
	}
	for i := range ab.Operations {
		o := &ab.Operations[i]
		if !bystander(o) || o.ErrorsOnlyOn != "" {
			continue
		}
		ha, hb, err := isolate(ctx, a.Plan().Ops[i], ea[i], b.Plan().Ops[i], eb[i], x.sides[0].cfg.Run.OperationSeed, i)
		x.judgeAlone(o, blamed, ha, hb, err)
	}
}

// culprits are the shapes whose plan changed and that were flagged: a
// collection scan where an index was, or an index where a scan was.
func culprits(ab *results.AB) []string {
	var out []string
	for _, o := range ab.Operations {
		if o.Flag != results.FlagNone && o.PlanChanged {
			out = append(out, o.Name)
		}
	}
	return out
}

// bystander: a shape flagged, either way, with its plan the same on both
// sides. Beside a shape whose plan changed it may be slower (the side that
// scans gets the CPU back later) or faster (a busier side wakes sooner, a
// scan keeps the documents it fetches in the cache) with nothing of its own
// changed: it is judged again on its own before its flag stands.
func bystander(o *results.ABOperation) bool {
	return o.Flag != results.FlagNone && !o.PlanChanged
}

// judgeAlone keeps o's flag if its timings alone (ha, hb) show it too, and
// otherwise clears it, sets Collateral and says both figures.
func (x *comparison) judgeAlone(o *results.ABOperation, blamed []string, ha, hb []*hdrhistogram.Histogram, err error) {
	if err != nil {
		o.Why += "; not measured on its own: " + err.Error()
		return
	}
	j := JudgeShape(ha, hb, x.Judge)
	if j.Flag == o.Flag {
		o.Why += fmt.Sprintf("; on its own too: %s", j.Why)
		return
	}
	how := "slower"
	if o.Flag == results.FlagImprovement {
		how = "faster"
	}
	if j.Flag != results.FlagNone {
		// The other way on its own, where the host's drift cancels: that
		// is the shape's own difference.
		o.Flag = j.Flag
		o.Why = fmt.Sprintf("%s in the rounds beside %s, whose plan changed (%.2fx); on its own, one operation at a time, the other way: %s",
			how, strings.Join(blamed, ", "), o.Shift, j.Why)
		return
	}
	o.Flag, o.Collateral = results.FlagNone, true
	o.Why = fmt.Sprintf("%s only beside %s, whose plan changed (%.2fx in the rounds); on its own, one operation at a time, %s",
		how, strings.Join(blamed, ", "), o.Shift, j.Why)
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
