package report

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/results"
)

// WriteConsole writes the final report of res for people: a header, a
// table with one row per operation and a TOTAL row (latencies in
// milliseconds to the microsecond), service times for open-loop runs, errors
// by class, notes, and the effective configuration in one line.
func WriteConsole(w io.Writer, res *results.Result) error {
	ew := &errWriter{w: w}
	writeHeader(ew, res)
	writeMerged(ew, res)
	ew.printf("\n")
	latencyTable(res, false).write(ew, "")
	if len(res.StepOperations()) > 0 {
		ew.printf("%s\n", StepLegend)
	}
	if d := res.Schedule; d != nil && d.Dropped > 0 {
		ew.printf("dropped: %s\n", DropText(d))
	}
	if res.Totals.Service != nil {
		ew.printf("\nservice time (ms), from the actual send:\n")
		latencyTable(res, true).write(ew, "")
	}
	if rows := DocsRows(res); rows != nil {
		ew.printf("\ndocuments (what the server did with them; empty: reads, updates, deletes that found none):\n")
		t := &table{}
		t.add(DocsHead...)
		for _, r := range rows {
			t.add(r...)
		}
		t.write(ew, "")
	}
	writeWatchers(ew, res)
	writeErrors(ew, res)
	writeOutcomes(ew, res)
	writeFaults(ew, res)
	writeServer(ew, res)
	writeContext(ew, res)
	writeCollections(ew, res)
	writeSlow(ew, res)
	writeNotes(ew, res.Notes, false)
	ew.printf("\n")
	if c := res.Client; c != nil {
		ew.printf("client:   %.2f CPU-s, %.1f µs CPU per operation, %s, %s\n",
			c.CPUSeconds, c.CPUPerOpMicros, c.CPUText(), MemoryText(c))
	}
	writeCPU(ew, res)
	if res.ConfigLine != "" {
		ew.printf("config:   %s\n", res.ConfigLine)
	}
	return ew.err
}

func writeHeader(w *errWriter, res *results.Result) {
	w.printf("%s %s results\n", res.Tool.Name, res.Tool.Version)
	w.printf("workload: %s\n", workloadText(res.Workload))
	if res.Label != "" {
		w.printf("label:    %s\n", res.Label)
	}
	w.printf("load:     %s\n", describeLoad(res.Load))
	if res.Load.Stages != "" {
		w.printf("stages:   %s\n", res.Load.Stages)
	}
	if res.Schedule != nil {
		w.printf("schedule: %s\n", describeSchedule(res.Schedule))
	}
	from, to := res.StartedAt.Format(time.RFC3339), res.EndedAt.Format(time.RFC3339)
	if res.DurationSeconds > 0 {
		w.printf("measured: %s after a %s warm-up, %s to %s\n", seconds(res.DurationSeconds), seconds(res.WarmupSeconds), from, to)
	} else {
		w.printf("measured: nothing (the run lasted from %s to %s)\n", from, to)
	}
	w.printf("outcome:  %s\n", OutcomeText(res.Outcome, res.Reason))
	w.printf("latency:  ms, %s\n", ClockText(res.Load))
}

// describeLoad says in words how load was applied.
func describeLoad(l results.LoadModel) string {
	switch l.Type {
	case results.Closed:
		return fmt.Sprintf("closed loop, %s workers", results.Thousands(int64(l.Concurrency)))
	case results.Open:
		s := fmt.Sprintf("open loop at %s ops/s", results.Target(l.Rate))
		if l.Arrival == "poisson" {
			s += " (Poisson arrivals)"
		}
		if l.Concurrency > 0 {
			s += fmt.Sprintf(", at most %s in flight", results.Thousands(int64(l.Concurrency)))
		}
		return s
	case results.Sessions:
		s := fmt.Sprintf("%s sessions", results.Thousands(int64(l.Sessions)))
		if l.ThinkTime != "" {
			s += ", think time " + l.ThinkTime
		}
		return s
	}
	return l.Type
}

// describeSchedule says how well an open-loop run kept its schedule.
func describeSchedule(s *results.Schedule) string {
	return fmt.Sprintf("target %s ops/s, achieved %s ops/s; %s scheduled, %s dropped, %s late (>10ms)",
		results.Rate(s.TargetRate), results.Rate(s.AchievedRate), results.Thousands(s.Scheduled), results.Thousands(s.Dropped), results.Thousands(s.Late))
}

// latencyTable builds the main table, or with service the service-time one.
func latencyTable(res *results.Result, service bool) *table {
	t := &table{}
	head := []string{"operation", "count", "ops/s", "avg", "min", "p50", "p95", "p99", "p99.9", "max", "errors"}
	if service {
		head = []string{"operation", "count", "avg", "min", "p50", "p95", "p99", "p99.9", "max"}
	}
	t.add(head...)
	row := func(name string, count, errs int64, tput float64, l *results.Latency) {
		cells := []string{name, results.Thousands(count)}
		if !service {
			cells = append(cells, results.Rate(tput))
		}
		cells = append(cells, latencyCells(count, l)...)
		if !service {
			cells = append(cells, results.Thousands(errs))
		}
		t.add(cells...)
	}
	mix, steps := res.MixOperations(), res.StepOperations()
	for _, o := range mix {
		l := &o.Latency
		if service {
			l = o.Service
		}
		row(o.Name, o.Count, o.Errors, o.Throughput, l)
	}
	tl := &res.Totals.Latency
	if service {
		tl = res.Totals.Service
	}
	row("TOTAL", res.Totals.Operations, res.Totals.Errors, res.Totals.Throughput, tl)
	if !service { // steps have no service time of their own
		for _, o := range steps {
			row(StepLabel(o.Name), o.Count, o.Errors, o.Throughput, &o.Latency)
		}
	}
	return t
}

// StepLabel is how a transaction's step is named in a table, after TOTAL:
// marked as a part of its transaction, not an operation of the mix.
func StepLabel(name string) string { return "  ↳ " + name }

// StepLegend explains StepLabel's rows under a table that has them.
const StepLegend = "↳ a part of the operation above it (a transaction's step, a read-modify-write's read or update), not counted in TOTAL; its latency is from its own send to its reply"

// latencyCells formats avg, min, p50, p95, p99, p99.9 and max; dashes when
// nothing was recorded, since 0.000 would claim a measurement.
func latencyCells(count int64, l *results.Latency) []string {
	if count == 0 || l == nil {
		return []string{"-", "-", "-", "-", "-", "-", "-"}
	}
	return []string{msFixed(l.Avg), msFixed(l.Min), msFixed(l.P50), msFixed(l.P95), msFixed(l.P99), msFixed(l.P999), msFixed(l.Max)}
}

// writeErrors lists error counts by operation and class, most frequent
// first within each operation.
// writeOutcomes lists what was neither success nor error: transactions the
// workload's own condition aborted, and the retries transactions needed.
func writeOutcomes(w *errWriter, res *results.Result) {
	t := &table{left: 2}
	for _, o := range res.Operations {
		names := slices.Sorted(maps.Keys(o.Outcomes))
		for _, n := range names {
			share := ""
			if o.Count > 0 && strings.HasPrefix(n, "aborted:") {
				share = fmt.Sprintf("%.2f%% of %s", 100*float64(o.Outcomes[n])/float64(o.Count), results.Thousands(o.Count))
			}
			t.add(o.Name, n, results.Thousands(o.Outcomes[n]), share)
		}
	}
	if len(t.rows) == 0 {
		return
	}
	w.printf("\noutcomes (neither success nor error; aborted transactions are counted in count):\n")
	t.write(w, "  ")
}

func writeErrors(w *errWriter, res *results.Result) {
	if res.Totals.Errors == 0 {
		return
	}
	w.printf("\nerrors by class:\n")
	t := &table{left: 2}
	for _, o := range res.Operations {
		classes := slices.SortedFunc(maps.Keys(o.ErrorsByClass), func(a, b string) int {
			return cmp.Or(cmp.Compare(o.ErrorsByClass[b], o.ErrorsByClass[a]), cmp.Compare(a, b))
		})
		for _, c := range classes {
			t.add(o.Name, c, results.Thousands(o.ErrorsByClass[c]))
		}
	}
	t.write(w, "  ")
}

// OutcomeText is how a run ended, in words: the outcome and its reason,
// without saying the outcome twice (older results give "interrupted" as the
// reason of an interrupted run).
func OutcomeText(o results.Outcome, reason string) string {
	reason = strings.TrimSpace(strings.TrimPrefix(reason, string(o)))
	reason = strings.TrimLeft(reason, ":, ")
	if reason == "" {
		return string(o)
	}
	return string(o) + ": " + reason
}
