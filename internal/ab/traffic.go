package ab

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/dbcommand"
	"github.com/mongoload/mongoload/internal/replay"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/run"
	"github.com/mongoload/mongoload/internal/workload"
)

// traffic.go: ab on the captured traffic itself (pt-upgrade's question for
// MongoDB): the operations production ran, with their values, replayed on
// both sides in rounds, each round from the trace's start at its captured
// pace (or as fast as the side answers), each captured shape judged as a
// workload's operation is, its reads' results compared one by one.

// Traffic is captured traffic to compare the sides on: a trace (capture
// --trace) or a MongoDB traffic recording.
type Traffic struct {
	Path   string
	Speed  float64 // a factor of the captured pace; 0: as fast as the side answers
	Writes string  // WritesNotSent or WritesAborted
}

// How a trace's writes are handled.
const (
	WritesNotSent = "not sent" // reads only: every round on the same data, the copies untouched
	WritesAborted = "aborted"  // each write in a transaction of its own, aborted
)

// RunTraffic compares the two sides of o on captured traffic: o.Config is
// the connection's and outputs' settings (validated), o.Plan unused. As Run,
// the file comes back whenever the comparison got as far as measuring.
func RunTraffic(ctx context.Context, o Options, tr Traffic) (*results.AB, error) {
	// ab sends what keepFor keeps: reads, and writes when asked; never DDL
	// or administration, and it says so in its own words (a replay's
	// --replay-ddl is no flag of ab's). The policy still refuses what is
	// never sent (a write into the server's own namespaces, applyOps...).
	t, err := replay.ScanKeeping(tr.Path, dbcommand.Policy{DDL: true, Admin: true}, keepFor(tr.Writes))
	if err != nil {
		return nil, &config.Error{Kind: config.Unreadable, Msg: "ab: " + err.Error()}
	}
	pace := replay.PaceFor(o.Config, tr.Speed, 1)
	cfgA := *o.Config
	t.Configure(&cfgA, pace)
	cfgA.Run.Out = ""
	if cfgA.Run.Grace == 0 {
		// A round ends once its last operations are answered: a side
		// behind the trace's pace would otherwise leave them running on
		// its server, into the next round (the other side's too, on one
		// host).
		cfgA.Run.Grace = config.Duration(time.Minute)
	}
	cfgB := cfgA
	cfgB.Connection.URI = o.CandidateURI
	o.Config = &cfgA
	if err := o.check(); err != nil {
		return nil, err
	}
	planA, planB := t.Plan(), t.Plan()
	for _, p := range []*workload.Plan{planA, planB} {
		for _, op := range p.Ops {
			op.AbortWrites = tr.Writes == WritesAborted
		}
	}
	x := &comparison{Options: o, sides: [2]side{{name: "A", cfg: &cfgA, plan: planA}, {name: "B", cfg: &cfgB, plan: planB}}, log: o.Log}
	if x.log == nil {
		x.log = discard{}
	}
	ab := newTrafficFile(o, t, tr, pace)
	fmt.Fprintln(x.log, t.Line(pace))
	if tr.Writes == WritesAborted {
		fmt.Fprintln(x.log, "ab: "+abortedNote)
	}
	if err := x.checkDistinct(ctx); err != nil {
		return nil, err
	}
	for _, s := range x.sides { // every refusal (the trace's own source first) before either side is touched
		fmt.Fprintf(x.log, "side %s: %s\n", s.name, config.RedactURI(s.cfg.Connection.URI))
		if err := run.CheckSetup(ctx, prefixed(x.log, "side "+s.name+": "), s.cfg, s.plan); err != nil {
			return nil, fmt.Errorf("side %s: %w", s.name, err)
		}
		if err := t.CheckNamespaces(ctx, prefixed(x.log, "side "+s.name+": "), s.cfg); err != nil {
			return nil, fmt.Errorf("side %s: %w", s.name, err)
		}
	}
	if err := x.checkDataFirst(ctx); err != nil {
		return nil, err
	}
	sessions, err := x.open(ctx, func(name string) run.Options {
		return run.Options{Log: prefixed(x.log, "side "+name+": "), Version: o.Version, Inputs: append(o.Inputs, tr.Path),
			Arrivals: newRoundFeed(t, pace, cfgA.Run.Interval.D())}
	})
	if err != nil {
		return nil, err
	}
	defer closeAll(sessions)
	return x.compareTraffic(ctx, sessions[0], sessions[1], t, ab)
}

// compareTraffic is the comparison once both sides are open: data and
// indexes, the verified results, explain, the rounds, the judgement.
func (x *comparison) compareTraffic(ctx context.Context, a, b *run.Session, t *replay.Trace, ab *results.AB) (*results.AB, error) {
	var err error
	if ab.Data, err = checkData(ctx, a.Client(), b.Client(), a.Plan().Collections); err != nil {
		return nil, err
	}
	if err := checkIndexes(ctx, a, b, ab.Data); err != nil {
		return nil, err
	}
	for _, s := range ab.IndexDiffs() {
		fmt.Fprintln(x.log, s)
	}
	if diff := dataDiffs(ab.Data); diff != "" {
		return nil, differ(diff)
	}
	fmt.Fprintf(x.log, "verifying results: up to %d operations of each shape, as the trace holds them, one at a time on A then B\n", x.Verify)
	ver, n, err := verifyTraffic(ctx, a, b, t, x.Verify)
	ab.Method.Verified = n
	none := make([]*results.Explain, len(a.Plan().Ops))
	if lost := (*sideLost)(nil); errors.As(err, &lost) {
		x.sideFailed(ab, lost.side, "stopped answering while verifying results: "+lost.err.Error())
		judge(ab, x, ver, none, none)
		x.trafficVerdict(ab)
		return ab, fail(run.ServerLost, err)
	}
	if err != nil {
		return nil, err
	}
	explainA, explainB := explainTraffic(ctx, a, t), explainTraffic(ctx, b, t)
	runs, runErr := x.rounds(ctx, a, b, ab)
	ab.Runs = runs
	judge(ab, x, ver, explainA, explainB)
	if names := notCompared(ab); len(names) > 0 {
		ab.Notes = append(ab.Notes, fmt.Sprintf("%s returned or matched nothing in most verified operations on both sides: the trace's values match nothing the sides hold there (are they copies of the deployment the traffic was captured from, taken before it?), so their results and latencies say nothing of the data", strings.Join(names, ", ")))
	}
	if runErr == nil {
		x.trafficCollateral(ctx, a, b, t, ab)
	}
	x.trafficVerdict(ab)
	return ab, runErr
}

// trafficVerdict concludes: write conflicts on one side only are no
// regression where writes ran in aborted transactions (concurrent
// transactions on one document conflict by chance, on either side).
func (x *comparison) trafficVerdict(ab *results.AB) {
	for i := range ab.Operations {
		forgiveConflicts(&ab.Operations[i], ab.Method)
	}
	verdict(ab)
	ab.EndedAt = time.Now()
}

func (x *comparison) sideFailed(ab *results.AB, side, why string) {
	if side == "A" {
		ab.A.Failed = why
	} else {
		ab.B.Failed = why
	}
}

// newTrafficFile is the file's frame: both sides, the method, and what
// the traffic is and holds.
func newTrafficFile(o Options, t *replay.Trace, tr Traffic, pace replay.Pace) *results.AB {
	ab := &results.AB{Tool: results.Tool{Name: "mongoload", Version: o.Version}, StartedAt: time.Now(),
		Workload: results.Workload{Name: "traffic " + tr.Path, Source: tr.Path},
		A:        results.ABSide{Label: "A (baseline)", URI: config.RedactURI(o.Config.Connection.URI)},
		B:        results.ABSide{Label: "B (candidate)", URI: config.RedactURI(o.CandidateURI)},
		Method: results.ABMethod{Rounds: o.Rounds, Order: ABOrder(o.Rounds), Parallel: o.Parallel,
			Threshold: o.Judge.Threshold, Alpha: o.Judge.Alpha, Test: ABTest, Verify: o.Verify},
		Sentences: []string{}, Runs: []results.ABRun{}}
	if o.Parallel {
		ab.Method.Order = nil
	}
	ab.Traffic = trafficSection(t, tr, pace)
	ab.Notes = trafficNotes(t, tr)
	return ab
}
