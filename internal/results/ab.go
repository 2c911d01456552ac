package results

import (
	"time"

	"github.com/mongoload/mongoload/internal/metrics"
)

// ABSchema identifies the file of `mongoload ab`: one workload run on a
// baseline (A) and a candidate (B), compared operation by operation.
const ABSchema = "mongoload.ab/v1"

// The verdicts of an A/B comparison, worst first.
const (
	ABDiffers   = "differs"   // verified operations returned different results
	ABRegressed = "regressed" // an operation is slower (or fails) on the candidate beyond the threshold
	ABImproved  = "improved"  // an operation is faster on the candidate beyond the threshold, none slower
	ABFailed    = "failed"    // every operation of a shape failed on both sides: it was not compared
	ABSame      = "same"      // nothing beyond the threshold, results agree
)

// ABEmptyShare: a shape whose verified operations returned no document in
// more than this share of them on both sides was not compared on data.
const ABEmptyShare = 0.5

// The flags of one operation.
const (
	FlagRegression  = "regression"
	FlagImprovement = "improvement"
	FlagNone        = "none"
)

// AB is the file `mongoload ab --out` writes. docs/ab.md documents it.
// Latencies are in milliseconds, as in a results file.
type AB struct {
	Schema   string   `json:"schema"`
	Tool     Tool     `json:"tool"`
	Workload Workload `json:"workload"`
	// Verdict is same, regressed, improved or differs; Summary says it in
	// one line, Sentences once per operation flagged or whose plan changed.
	Verdict   string   `json:"verdict"`
	Summary   string   `json:"summary"`
	Sentences []string `json:"sentences"`

	StartedAt time.Time `json:"startedAt"`
	EndedAt   time.Time `json:"endedAt"`
	// A and B are the two deployments (credentials removed).
	A ABSide `json:"a"`
	B ABSide `json:"b"`
	// Method is how the two sides were made comparable and judged.
	Method ABMethod `json:"method"`
	// Data is each collection's count and sample digest on both sides,
	// checked before anything was measured.
	Data       []ABData      `json:"data"`
	Operations []ABOperation `json:"operations"`
	// Runs are every measured run, in the order they ran: each side's full
	// results, round by round.
	Runs  []ABRun  `json:"runs"`
	Notes []string `json:"notes,omitempty"`
	// Traffic is set when the comparison replayed captured traffic (a
	// trace or a MongoDB recording) rather than a workload.
	Traffic *ABTraffic `json:"traffic,omitempty"`
}

// ABTraffic is the captured traffic a comparison replayed on both sides.
type ABTraffic struct {
	File   string `json:"file"`
	Format string `json:"format"` // "mongoload trace" or "MongoDB traffic recording"
	Speed  string `json:"speed"`  // a factor of the captured pace, or max
	// Writes is how the trace's writes were handled: "not sent" (the
	// default) or "aborted" (each in a transaction that is aborted).
	Writes  string `json:"writes"`
	Entries int64  `json:"entries"` // entries read
	Sent    int64  `json:"sent"`    // of them, sent in each round
	// NotSent counts what was not sent, by why.
	NotSent  map[string]int64 `json:"notSent,omitempty"`
	Complete bool             `json:"complete"` // the source recorded every operation
	Coverage string           `json:"coverage"` // what the source recorded, in its words
	Damage   string           `json:"damage,omitempty"`
	// Source is the deployment the traffic was captured from, when the
	// file names it (a MongoDB recording never does).
	Source []string `json:"source,omitempty"`
}

// ABSide is one deployment of the comparison.
type ABSide struct {
	Label string `json:"label"` // "A (baseline)" or "B (candidate)"
	URI   string `json:"uri"`   // the connection string without credentials
	// Server is the version the deployment reported, when it did.
	Server string `json:"server,omitempty"`
	// Failed says why the side stopped answering during a round, if it did:
	// its rounds were measured through, and no improvement is concluded.
	Failed string `json:"failed,omitempty"`
}

// ABMethod records how the comparison ran and was judged.
type ABMethod struct {
	Rounds        int      `json:"rounds"`         // measured runs per side
	Order         []string `json:"order"`          // the sides in the order they ran, such as A B B A
	Parallel      bool     `json:"parallel"`       // both sides at once (open loop, same rate)
	OperationSeed uint64   `json:"operationSeed"`  // both sides' operation sequence
	RandomSeed    uint64   `json:"randomSeed"`     // the seeding's
	Seeded        bool     `json:"seeded"`         // mongoload seeded both sides
	Threshold     float64  `json:"threshold"`      // the smallest effect flagged, as a share (0.10)
	Alpha         float64  `json:"alpha"`          // the significance level of the test
	Test          string   `json:"test"`           // the test, in words
	Verify        int      `json:"verifyPerShape"` // operations verified per shape
	Verified      int      `json:"verified"`       // operations verified in all
}

// ABData is one collection's data on both sides before measuring.
type ABData struct {
	Namespace string `json:"namespace"`
	CountA    int64  `json:"countA"`
	CountB    int64  `json:"countB"`
	// DigestA and DigestB hash the first Sample documents in _id order.
	Sample  int    `json:"sample"`
	DigestA string `json:"digestA"`
	DigestB string `json:"digestB"`
	Same    bool   `json:"same"`
	// FirstDiff is the _id of the first sampled document that differs.
	FirstDiff string `json:"firstDiff,omitempty"`
	// IndexDiffs name each index one side has and the other lacks
	// (matched by key pattern), and each whose options (unique, sparse,
	// TTL, partial filter, collation) differ: "B lacks the index {org: 1}
	// (org_1) that A has".
	IndexDiffs []string `json:"indexDiffs,omitempty"`
}

// IndexDiffs are every collection's index differences, each a sentence
// that names the collection.
func (ab *AB) IndexDiffs() []string {
	var out []string
	for _, d := range ab.Data {
		for _, s := range d.IndexDiffs {
			out = append(out, "indexes of "+d.Namespace+": "+s)
		}
	}
	return out
}

// ABOperation is one operation (shape) compared.
type ABOperation struct {
	Name string `json:"name"`
	Type string `json:"type,omitempty"`
	// Flag is regression, improvement or none; Why says what decided it.
	Flag string `json:"flag"`
	Why  string `json:"why"`
	// PlanA and PlanB are each side's winning plan as planSummary writes
	// it (IXSCAN { org: 1 }, COLLSCAN); PlanChanged is set when they differ.
	PlanA       string   `json:"planA"`
	PlanB       string   `json:"planB"`
	PlanChanged bool     `json:"planChanged"`
	ExplainA    *Explain `json:"explainA,omitempty"`
	ExplainB    *Explain `json:"explainB,omitempty"`
	// Ratios are B over A at p50, p95, p99; Shift is the distribution's
	// typical ratio (the median of B/A over the deciles 10..90), P the
	// stratified rank test's two-sided p-value across rounds.
	RatioP50 float64 `json:"ratioP50"`
	RatioP95 float64 `json:"ratioP95"`
	RatioP99 float64 `json:"ratioP99"`
	Shift    float64 `json:"shift"`
	P        float64 `json:"p"`
	// RoundShifts are each round's shift, in round order.
	RoundShifts []float64 `json:"roundShifts"`
	// Collateral is set on a shape that was slower or faster in the rounds
	// beside another whose plan changed, but not on its own (Why says
	// both): it is not flagged.
	Collateral bool `json:"collateral,omitempty"`
	// ErrorsOnlyOn is "A" or "B" when only that side's operations failed.
	ErrorsOnlyOn string `json:"errorsOnlyOn,omitempty"`
	// Verified operations of this shape, and how many returned different
	// results; CountOnly marks a limit without a sort, whose result set is
	// not defined: only the number of documents was compared.
	Verified    int      `json:"verified"`
	ResultDiffs int      `json:"resultDiffs"`
	CountOnly   bool     `json:"countOnly,omitempty"`
	Diffs       []ABDiff `json:"diffs,omitempty"`
	// EmptyA and EmptyB are the shares of the verified operations (of a
	// shape that returns documents) that returned none on each side.
	// NotComparedOnData is set when both are above ABEmptyShare: both
	// sides answered "nothing", so their results say nothing of the data,
	// and the latencies are those of empty answers.
	EmptyA            float64 `json:"emptyA,omitempty"`
	EmptyB            float64 `json:"emptyB,omitempty"`
	NotComparedOnData bool    `json:"notComparedOnData,omitempty"`
	// MatchedNothing counts the verified operations that returned or
	// matched nothing on both sides: they agree, and compared nothing.
	MatchedNothing int `json:"matchedNothing,omitempty"`
	// FailedOnBoth is set when every operation of the shape failed on both
	// sides: nothing of it was compared (Why names the errors).
	FailedOnBoth bool `json:"failedOnBoth,omitempty"`
	// ResultA and ResultB are the operation's whole figures on each side,
	// every round together (Histogram holds them all).
	ResultA Operation `json:"resultA"`
	ResultB Operation `json:"resultB"`
	// PerRound is the operation's tail in each round on each side, in the
	// order they ran; Tail says when one round alone makes a side's
	// aggregate tail (ABTailFactor).
	PerRound []ABRoundTail `json:"perRound"`
	Tail     string        `json:"tail,omitempty"`
}

// ABRoundTail is one operation in one round on one side.
type ABRoundTail struct {
	Round int     `json:"round"`
	Side  string  `json:"side"`
	Count int64   `json:"count"`
	P50   float64 `json:"p50"`
	P99   float64 `json:"p99"`
}

// ABTailFactor: a round whose p99 is at least this many times every other
// round's (of one side) makes that side's aggregate tail alone.
const ABTailFactor = 3

// ABDiff is one verified operation whose results differ.
type ABDiff struct {
	Seq    int    `json:"seq"`    // its place in the verified sequence, from 1
	Filter string `json:"filter"` // the filter (or pipeline) it sent
	ID     string `json:"id"`     // the first differing document's _id, as extended JSON
	A      string `json:"a"`      // what each side returned, in words
	B      string `json:"b"`
}

// ABRun is one measured run of one side.
type ABRun struct {
	Side   string  `json:"side"` // A or B
	Round  int     `json:"round"`
	Result *Result `json:"result"`
}

// WriteAB writes ab to path as indented JSON with ABSchema, atomically.
func WriteAB(path string, ab *AB) error {
	out := *ab
	out.Schema = ABSchema
	return writeIndented("ab", path, &out)
}

// SideResult is one side as a results file, for compare and report: its
// last round's result (load model, context, server) with each operation's
// figures over every round (ResultA or ResultB) in place of that round's,
// and the totals made again from them. nil when the side measured nothing.
func (ab *AB) SideResult(side string) *Result {
	var out *Result
	var secs float64
	for i := range ab.Runs {
		if r := ab.Runs[i]; r.Side == side && r.Result != nil {
			c := *r.Result
			out = &c
			secs += r.Result.DurationSeconds
		}
	}
	if out == nil {
		return nil
	}
	out.Label, out.Intervals, out.Notes = ab.A.Label, nil, nil
	if side == "B" {
		out.Label = ab.B.Label
	}
	out.DurationSeconds = secs
	out.Operations = make([]Operation, 0, len(ab.Operations))
	all := metrics.NewHistogram()
	out.Totals = Totals{}
	for _, o := range ab.Operations {
		op := o.ResultA
		if side == "B" {
			op = o.ResultB
		}
		out.Operations = append(out.Operations, op)
		out.Totals.Operations += op.Count
		out.Totals.Errors += op.Errors
		if h, err := metrics.DecodeHistogram(op.Histogram); err == nil {
			all.Merge(h)
		}
	}
	if secs > 0 {
		out.Totals.Throughput = Round3(float64(out.Totals.Operations) / secs)
	}
	out.Totals.Latency = LatencyOf(all)
	return out
}
