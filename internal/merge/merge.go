// Package merge combines the results of several mongoload processes of one
// run (results files and HdrHistogram interval logs) into one result.
//
// Latencies are merged by adding histograms bucket for bucket, never by
// averaging percentiles, so the merged percentiles are exactly those of one
// histogram of every process's samples. Counts and errors by class are
// summed; the measured phase is the span from the earliest start to the
// latest end, and throughput is the total over that span. Interval series
// are aligned on the wall clock: intervals of every process that end in the
// same second (or the same N seconds, for N-second intervals) are added.
package merge

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
)

// Merge combines srcs into one result written by tool. It rejects inputs
// that are not processes of one run with an error naming the files.
func Merge(srcs []*Source, tool results.Tool) (*results.Result, error) {
	if len(srcs) == 0 {
		return nil, ErrNoInputs
	}
	if err := check(srcs); err != nil {
		return nil, err
	}
	keys, names := order(srcs)
	info, notes := runInfo(srcs, tool)
	info.OpParents = parents(srcs, names)
	totals := metrics.NewTotals(names, srcs[0].service)
	for _, s := range srcs {
		if s.measuredNothing() {
			notes = append(notes, s.File+" measured nothing: its time range is left out of the merged one")
			continue
		}
		totals.Add(s.asInterval(keys, names))
	}
	series, upper := mergeSeries(srcs, keys, names, totals.Start())
	for _, iv := range series {
		for i := range iv.Ops {
			iv.Ops[i].Parent = info.OpParents[iv.Ops[i].Name]
		}
	}
	if upper {
		notes = append(notes, "in intervals where several processes ran an operation, p50, p95 and p99 are upper bounds (the largest of the processes' values, flagged percentilesUpperBound): results files keep no per-interval histograms; merge the processes' interval logs (--hdr-log) for exact ones")
	}
	if gap := gaps(srcs); gap != "" {
		notes = append(notes, gap)
	}
	info.Notes = append(info.Notes, notes...)
	res := results.Build(info, totals, series)
	var wnotes []string
	res.Watchers, wnotes = mergeWatchers(srcs, res.DurationSeconds)
	res.Notes = append(res.Notes, wnotes...)
	res.Merged = &results.Merged{}
	for _, s := range srcs {
		res.Merged.Sources = append(res.Merged.Sources, s.describe())
	}
	return res, nil
}

// order returns the operations' keys and names in the first results file's
// order, or else the first log's.
func order(srcs []*Source) (keys, names []string) {
	first := srcs[0]
	for _, s := range srcs {
		if s.Kind == KindResults {
			first = s
			break
		}
	}
	for _, k := range first.keys {
		keys = append(keys, k)
		names = append(names, first.ops[k].name)
	}
	return keys, names
}

// parents maps each transaction step to its transaction, so the merged
// totals count a transaction once (metrics.InMix), as each process's did.
// Results files say so; interval logs do not, so a step known only from
// logs is recognized by its name, "transaction/step", under an operation
// of the same run.
func parents(srcs []*Source, names []string) map[string]string {
	out := map[string]string{}
	for _, s := range srcs {
		for _, d := range s.ops {
			if d.parent != "" {
				out[d.name] = d.parent
			}
		}
	}
	for _, n := range names {
		if i := strings.LastIndex(n, "/"); i > 0 && out[n] == "" && slices.Contains(names, n[:i]) {
			out[n] = n[:i]
		}
	}
	return out
}

// measuredNothing reports a results file of a run that ended before its
// measured phase: its times bound the whole run, not a measurement.
func (s *Source) measuredNothing() bool {
	return s.Result != nil && s.Result.DurationSeconds == 0 && s.Result.Totals.Operations == 0 && s.Result.Totals.Errors == 0
}

// asInterval presents a source's whole-run figures as one interval spanning
// its measured phase, so that metrics.Totals adds the sources together
// exactly as it adds a run's intervals.
func (s *Source) asInterval(keys, names []string) *metrics.Interval {
	iv := &metrics.Interval{Start: s.start, End: s.end, Ops: make([]metrics.OpInterval, len(keys))}
	for i, k := range keys {
		d := s.ops[k]
		iv.Ops[i] = metrics.OpInterval{Name: names[i], Latency: d.lat, Service: d.svc, Errors: d.errors, Overflow: d.overflow, Docs: d.docs}
	}
	if r := s.Result; r != nil && r.Schedule != nil {
		iv.Load = metrics.Load{Scheduled: r.Schedule.Scheduled, Dropped: r.Schedule.Dropped, Late: r.Schedule.Late}
	}
	return iv
}

func (s *Source) describe() results.MergedSource {
	d := results.MergedSource{File: s.File, Kind: s.Kind, StartedAt: s.start, EndedAt: s.end}
	if r := s.Result; r != nil {
		d.Label, d.Partition = r.Label, r.Load.Partition
		d.Operations, d.Errors = r.Totals.Operations, r.Totals.Errors
		return d
	}
	for _, o := range s.ops {
		d.Operations += o.lat.TotalCount()
	}
	return d
}

// runInfo describes the merged run from what the inputs share.
func runInfo(srcs []*Source, tool results.Tool) (results.RunInfo, []string) {
	info := results.RunInfo{Tool: tool, OpTypes: map[string]string{}, Outcome: results.Completed}
	files := make([]string, len(srcs))
	var labels, reasons, notes []string
	var runs []*results.Result
	for i, s := range srcs {
		files[i] = s.File
		for _, k := range s.keys {
			if t := s.ops[k].typ; t != "" {
				info.OpTypes[s.ops[k].name] = t
			}
		}
		if s.Result == nil {
			notes = append(notes, s.File+" is an interval log, which holds no error counts (nor the workload or load model): that process's errors are not in the merged result")
			continue
		}
		runs = append(runs, s.Result)
		r := s.Result
		labels = appendNew(labels, r.Label)
		info.Outcome = worse(info.Outcome, r.Outcome)
		if r.Outcome != results.Completed {
			reasons = append(reasons, fmt.Sprintf("%s: %s", s.File, cmp.Or(r.Reason, string(r.Outcome))))
		}
		info.Warmup = max(info.Warmup, time.Duration(r.WarmupSeconds*float64(time.Second)))
		for _, n := range r.Notes {
			notes = append(notes, s.File+": "+n)
		}
	}
	if len(labels) == 1 {
		info.Label = labels[0]
	}
	info.Reason = strings.Join(reasons, "; ")
	info.ConfigLine = "merged from " + strings.Join(files, " ")
	if len(runs) > 0 {
		info.Workload = runs[0].Workload
		info.Load = mergeLoad(runs)
		notes = append(notes, partitionNotes(srcs)...)
	}
	return info, notes
}

// mergeLoad adds the processes' workers, rates and sessions.
func mergeLoad(rs []*results.Result) results.LoadModel {
	l := rs[0].Load
	l.Partition = ""
	for _, r := range rs[1:] {
		l.Concurrency += r.Load.Concurrency
		l.Rate += r.Load.Rate
		l.Sessions += r.Load.Sessions
		l.MaxInFlight += r.Load.MaxInFlight // each process had its own
		if r.Load.LatencyClock() == metrics.FromReady {
			l.LatencyFrom = metrics.FromReady // some latencies include a wait for a place
		}
		if r.Load.Stages != l.Stages {
			l.Stages = ""
		}
	}
	return l
}

// partitionNotes says which partitions of a partitioned run are missing,
// and which ended early (a process interrupted, or whose server went away):
// either way the merged result is not the load of the whole run.
func partitionNotes(srcs []*Source) []string {
	have := map[int]bool{}
	n := 0
	var notes []string
	for _, s := range srcs {
		r := s.Result
		if r == nil || r.Load.Partition == "" {
			continue
		}
		p, err := config.ParsePartition(r.Load.Partition)
		if err != nil {
			continue
		}
		have[p.Index], n = true, p.Count
		if r.Outcome != results.Completed && r.Outcome != results.DurationReached {
			notes = append(notes, fmt.Sprintf("partition %s (%s) ended early (%s after %s measured): the merged result covers its load only until then",
				r.Load.Partition, s.File, cmp.Or(r.Reason, string(r.Outcome)), time.Duration(r.DurationSeconds*float64(time.Second)).Round(time.Millisecond)))
		}
	}
	var missing []string
	for i := range n {
		if !have[i] {
			missing = append(missing, fmt.Sprintf("%d/%d", i, n))
		}
	}
	if len(missing) > 0 {
		notes = append([]string{fmt.Sprintf("partition %s of the run is not among the inputs: the merged result covers only part of its load", strings.Join(missing, ", "))}, notes...)
	}
	return notes
}

// gaps says when the inputs' measured phases do not overlap, since the
// merged throughput then counts the gap.
func gaps(srcs []*Source) string {
	var spans [][2]time.Time
	for _, s := range srcs {
		if !s.measuredNothing() {
			spans = append(spans, [2]time.Time{s.start, s.end})
		}
	}
	slices.SortFunc(spans, func(a, b [2]time.Time) int { return a[0].Compare(b[0]) })
	var gap time.Duration
	end := time.Time{}
	for i, sp := range spans {
		if i > 0 && sp[0].After(end) {
			gap += sp[0].Sub(end)
		}
		if sp[1].After(end) {
			end = sp[1]
		}
	}
	if gap <= 0 {
		return ""
	}
	return fmt.Sprintf("the inputs' measured phases leave %s uncovered between them: throughput is over the whole span, gaps included", gap.Round(time.Millisecond))
}

// worse is the more serious of two outcomes.
func worse(a, b results.Outcome) results.Outcome {
	rank := map[results.Outcome]int{results.Completed: 0, results.DurationReached: 1, results.Interrupted: 2, results.ServerLost: 3}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}
