package metrics

import (
	"fmt"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Totals accumulates intervals into whole-run figures per operation. The
// interval histograms are added bucket for bucket, so whole-run percentiles
// are exactly those of one histogram of every sample; percentiles of
// intervals are never averaged. A Totals is not safe for concurrent use.
type Totals struct {
	ops        []OpTotal
	start, end time.Time
	intervals  int
	load       Load
}

// Load is the sum of the intervals' load counts (gauges: the last interval's).
func (t *Totals) Load() Load { return t.load }

// OpTotal is what one operation recorded over every interval added so far.
// Its fields mean the same as OpInterval's.
type OpTotal struct {
	Name     string
	Parent   string // see InMix
	Latency  *hdrhistogram.Histogram
	Service  *hdrhistogram.Histogram // nil unless made with service
	Errors   map[string]int64        // nil if there were none
	Outcomes map[string]int64        // nil if there were none
	Overflow int64
	Docs     Docs
}

// Count is the number of successful operations recorded.
func (o *OpTotal) Count() int64 { return o.Latency.TotalCount() }

// ErrorCount is the number of failed operations, all classes together.
func (o *OpTotal) ErrorCount() int64 { return sumErrors(o.Errors) }

// NewTotals returns empty totals for the operations named ops, with service
// histograms if service is true.
func NewTotals(ops []string, service bool) *Totals {
	t := &Totals{ops: make([]OpTotal, len(ops))}
	for i, name := range ops {
		t.ops[i] = OpTotal{Name: name, Latency: NewHistogram()}
		if service {
			t.ops[i].Service = NewHistogram()
		}
	}
	return t
}

// Add adds one interval. Its operations must be those the Totals was made
// with, in the same order; anything else is a programming error and panics,
// because silently mis-attributing latencies would be worse.
func (t *Totals) Add(iv *Interval) {
	if len(iv.Ops) != len(t.ops) {
		panic(fmt.Sprintf("metrics: Totals.Add: interval has %d operations, totals have %d", len(iv.Ops), len(t.ops)))
	}
	for i := range iv.Ops {
		t.ops[i].add(&iv.Ops[i])
	}
	t.load.add(iv.Load)
	if t.intervals == 0 || iv.Start.Before(t.start) {
		t.start = iv.Start
	}
	if iv.End.After(t.end) {
		t.end = iv.End
	}
	t.intervals++
}

// add adds one interval's figures. As in set.addTo, Merge cannot drop.
func (o *OpTotal) add(from *OpInterval) {
	if from.Name != o.Name {
		panic(fmt.Sprintf("metrics: Totals.Add: operation %q where %q was expected", from.Name, o.Name))
	}
	if from.Parent != "" {
		o.Parent = from.Parent
	}
	o.Latency.Merge(from.Latency)
	if o.Service != nil && from.Service != nil {
		o.Service.Merge(from.Service)
	}
	o.Overflow += from.Overflow
	o.Docs.Add(from.Docs)
	o.Errors = addErrors(o.Errors, from.Errors)
	o.Outcomes = addErrors(o.Outcomes, from.Outcomes)
}

// InMix reports whether the operation is one of the mix's (see InMix).
func (o *OpTotal) InMix() bool { return InMix(o.Parent) }

// Op returns operation i's totals. The caller must not modify them.
func (t *Totals) Op(i int) *OpTotal { return &t.ops[i] }

// Len is the number of operations.
func (t *Totals) Len() int { return len(t.ops) }

// Intervals is the number of intervals added.
func (t *Totals) Intervals() int { return t.intervals }

// Start is the start of the earliest interval added; zero if none was.
func (t *Totals) Start() time.Time { return t.start }

// End is the end of the latest interval added; zero if none was.
func (t *Totals) End() time.Time { return t.end }

// Duration is End minus Start: the time the totals cover.
func (t *Totals) Duration() time.Duration { return t.end.Sub(t.start) }
