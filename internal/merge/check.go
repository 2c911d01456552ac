package merge

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/results"
)

// check rejects inputs that are not processes of one run: the same file
// twice, other workloads or operations, latencies measured differently
// (closed against open loop, with service times against without), the same
// partition twice. Every message names both files.
func check(srcs []*Source) error {
	seen := map[string]string{}
	for _, s := range srcs {
		abs, err := filepath.Abs(s.File)
		if err != nil {
			abs = s.File
		}
		if prev, ok := seen[abs]; ok {
			return fmt.Errorf("%s is given twice (as %s and %s): each process's results must be counted once", abs, prev, s.File)
		}
		seen[abs] = s.File
	}
	first := srcs[0]
	for _, s := range srcs[1:] {
		if err := sameOperations(first, s); err != nil {
			return err
		}
		if s.service != first.service {
			with, without := first, s
			if s.service {
				with, without = s, first
			}
			return fmt.Errorf("%s has service times and %s has none: an open-loop run's latency (from the scheduled start) and a closed-loop run's (from the send) cannot be added", with.File, without.File)
		}
	}
	if err := sameProcess(srcs); err != nil {
		return err
	}
	return checkResults(srcs)
}

// hlogResolution is how far an interval log's times may lie from its
// results file's: the log writes each interval's start and length in
// milliseconds, so its end may be off by both roundings.
const hlogResolution = 3 * time.Millisecond

// sameProcess rejects a process's results file given together with its own
// interval log: the same time range (to the log's resolution) and the same
// counts would be counted twice.
func sameProcess(srcs []*Source) error {
	for _, a := range srcs {
		for _, b := range srcs {
			if a.Kind != KindResults || b.Kind != KindHlog {
				continue
			}
			if a.start.Sub(b.start).Abs() > hlogResolution || a.end.Sub(b.end).Abs() > hlogResolution {
				continue
			}
			same := true
			for k, o := range a.ops {
				same = same && b.ops[k] != nil && o.lat.TotalCount() == b.ops[k].lat.TotalCount()
			}
			if same {
				return fmt.Errorf("%s and %s cover the same time with the same counts: they are one process's results file and interval log, and merging both would count it twice; give one of them", a.File, b.File)
			}
		}
	}
	return nil
}

// sameOperations requires the same operations, of the same types.
func sameOperations(a, b *Source) error {
	ka, kb := slices.Sorted(slices.Values(a.keys)), slices.Sorted(slices.Values(b.keys))
	if !slices.Equal(ka, kb) {
		return fmt.Errorf("%s and %s have different operations (%s: %s; %s: %s): they are not processes of one run",
			a.File, b.File, a.File, strings.Join(ka, ", "), b.File, strings.Join(kb, ", "))
	}
	for _, k := range a.keys {
		ta, tb := a.ops[k].typ, b.ops[k].typ
		if ta != "" && tb != "" && ta != tb {
			return fmt.Errorf("operation %s is a %s in %s and a %s in %s: they are not processes of one run", k, ta, a.File, tb, b.File)
		}
	}
	return nil
}

// checkResults compares what results files say about their runs.
func checkResults(srcs []*Source) error {
	var first *Source
	parts := map[string]string{}
	partN := 0
	for _, s := range srcs {
		r := s.Result
		if r == nil {
			continue
		}
		if first == nil {
			first = s
		}
		f := first.Result
		if r.Workload.Name != f.Workload.Name {
			return fmt.Errorf("%s ran workload %q and %s ran %q: results of different workloads cannot be merged", first.File, f.Workload.Name, s.File, r.Workload.Name)
		}
		if r.Load.Type != f.Load.Type {
			return fmt.Errorf("%s is a %s run and %s a %s run: their latencies are measured differently and cannot be added", first.File, describeType(f.Load.Type), s.File, describeType(r.Load.Type))
		}
		if err := sameLoad(first, s); err != nil {
			return err
		}
		if err := ranTogether(first, s); err != nil {
			return err
		}
		if p := r.Load.Partition; p != "" {
			if prev, ok := parts[p]; ok {
				return fmt.Errorf("%s and %s both ran partition %s: the same process's results twice?", prev, s.File, p)
			}
			parts[p] = s.File
			pt, err := config.ParsePartition(p)
			if err != nil {
				return fmt.Errorf("%s: partition %q: %w", s.File, p, err)
			}
			if partN != 0 && pt.Count != partN {
				return fmt.Errorf("%s ran partition %s, of %d processes, but another input is one of %d: they are not processes of one run", s.File, p, pt.Count, partN)
			}
			partN = pt.Count
		}
	}
	return nil
}

func describeType(t string) string {
	switch t {
	case results.Closed:
		return "closed-loop"
	case results.Open:
		return "open-loop"
	case results.Sessions:
		return "sessions"
	}
	return fmt.Sprintf("%q", t)
}

// sameLoad requires the load every process of one run applies: they run
// one command line, which only --partition (and the output files) vary.
func sameLoad(a, b *Source) error {
	la, lb := a.Result.Load, b.Result.Load
	for _, d := range []struct {
		what   string
		va, vb any
	}{
		{"concurrency", la.Concurrency, lb.Concurrency}, {"rate", la.Rate, lb.Rate}, {"arrival", la.Arrival, lb.Arrival},
		{"sessions", la.Sessions, lb.Sessions}, {"think time", la.ThinkTime, lb.ThinkTime}, {"stages", la.Stages, lb.Stages},
	} {
		if d.va != d.vb {
			return fmt.Errorf("%s ran with %s %v and %s with %v: not processes of one run (each process of a run runs the same command, but for --partition)", a.File, d.what, d.va, b.File, d.vb)
		}
	}
	return nil
}

// ranTogether requires two results files of processes that split no key
// space (no --partition) to have measured at the same time: runs that did
// not overlap at all are separate runs, to compare, not to add.
func ranTogether(a, b *Source) error {
	if a.Result.Load.Partition != "" || b.Result.Load.Partition != "" || a.measuredNothing() || b.measuredNothing() {
		return nil
	}
	first, second := a, b
	if b.start.Before(a.start) {
		first, second = b, a
	}
	if apart := second.start.Sub(first.end); apart > 0 {
		return fmt.Errorf("%s ended %s before %s started: runs that did not overlap are not processes of one run (compare them with mongoload compare)", first.File, apart.Round(time.Millisecond), second.File)
	}
	return nil
}
