package sink

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/mongoload/mongoload/internal/results"
)

// liveOpsPerLine is how many operations share one live line; more wrap onto
// continuation lines aligned under the first, so 6 to 8 operations stay
// readable in an 80 to 120 column terminal.
const liveOpsPerLine = 3

// NewLiveSink returns a sink that writes one line per interval to w:
//
//	[  12s]  8,412 ops/s | find_by_id 4,120/s p99 2.31ms | update_seats 1,770/s p99 3.02ms | errors 0
//
// Rates and errors are for that interval alone, not cumulative, and count
// the mix's operations only: a transaction is one operation, its steps are
// not shown. Close writes
// nothing more and returns the first write error, if any.
func NewLiveSink(w io.Writer) Sink { return &liveSink{w: w} }

type liveSink struct {
	w       io.Writer
	err     error
	nominal float64 // the longest interval so far, in seconds
}

func (s *liveSink) Name() string { return "live progress" }

// Interval writes the interval's line, but not for the run's last,
// partial interval (results.Partial): its rates would be noise. The totals
// and the results file still count it.
func (s *liveSink) Interval(snap *Snapshot) {
	dt := snap.Interval.End.Sub(snap.Interval.Start).Seconds()
	s.nominal = max(s.nominal, dt)
	if s.err != nil || results.Partial(dt, s.nominal) {
		return
	}
	_, s.err = io.WriteString(s.w, LiveLine(snap.Summary))
}

func (s *liveSink) Close(*results.Result) error { return s.err }

// LiveLine formats one interval for the live sink, newline included.
func LiveLine(sum results.IntervalSummary) string {
	var total float64
	var errs int64
	classes := map[string]int64{}
	fields := make([]string, 0, len(sum.Ops)+1)
	for _, o := range sum.Ops {
		if !o.InMix() {
			continue // a transaction's step: part of its transaction's rate
		}
		total += o.Rate
		errs += o.Errors
		for c, n := range o.ErrorsByClass {
			classes[c] += n
		}
		p99 := "-"
		if o.Count > 0 {
			p99 = msShort(o.P99)
		}
		fields = append(fields, fmt.Sprintf("%s %s/s p99 %s", o.Name, results.Whole(o.Rate), p99))
	}
	fields = append(fields, "errors "+results.Thousands(errs)+errorClasses(classes))
	if l := sum.Load; l != nil && l.TargetRate > 0 {
		fields = append(fields, fmt.Sprintf("target %s/s in-flight %s dropped %s late %s",
			results.Whole(l.TargetRate), results.Thousands(l.InFlight), results.Thousands(l.Dropped), results.Thousands(l.Late)))
	} else if l != nil && sum.Dt > 0 && l.Active > 0 {
		fields = append(fields, "active "+results.Thousands(l.Active))
	}

	prefix := fmt.Sprintf("[%4ds] %6s ops/s ", int64(sum.T+0.5), results.Whole(total))
	indent := strings.Repeat(" ", len(prefix))
	var b strings.Builder
	for i := 0; i < len(fields); i += liveOpsPerLine {
		if i == 0 {
			b.WriteString(prefix)
		} else {
			b.WriteString("\n" + indent)
		}
		end := min(i+liveOpsPerLine, len(fields))
		// Keep "errors" on the last operations' line rather than alone.
		if len(fields)-end == 1 {
			end++
		}
		b.WriteString("| " + strings.Join(fields[i:end], " | "))
		if end == len(fields) {
			break
		}
	}
	b.WriteByte('\n')
	return b.String()
}

// errorClasses formats error classes, most frequent first: " (timeout 2,
// network 1)", or "" if there are none.
func errorClasses(classes map[string]int64) string {
	if len(classes) == 0 {
		return ""
	}
	keys := slices.SortedFunc(maps.Keys(classes), func(a, b string) int {
		return cmp.Or(cmp.Compare(classes[b], classes[a]), cmp.Compare(a, b))
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + " " + results.Thousands(classes[k])
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// msShort formats milliseconds with about three significant digits and a
// unit, for the live line: 0.41ms, 2.31ms, 40.1ms, 512ms, 1.23s.
func msShort(f float64) string {
	switch {
	case f < 10:
		return fmt.Sprintf("%.2fms", f)
	case f < 100:
		return fmt.Sprintf("%.1fms", f)
	case f < 1000:
		return fmt.Sprintf("%.0fms", f)
	default:
		return fmt.Sprintf("%.2fs", f/1000)
	}
}
