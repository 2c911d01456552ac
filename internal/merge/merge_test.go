package merge

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/sink"
)

var (
	t0    = time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)
	tool  = results.Tool{Name: "mongoload", Version: "test"}
	ops   = []string{"find_by_id", "insert_booking"}
	types = map[string]string{"find_by_id": "find", "insert_booking": "insertOne"}
)

const (
	procs   = 3
	seconds = 5
)

// split is one recorded stream of latencies split across procs processes,
// each with its own recorder and interval clock, written the way a run
// writes them, plus the reference: every sample in one recorder.
type split struct {
	dir     string
	json    []string // results file of each process
	hlog    []string // interval log of each process
	ref     *metrics.Totals
	refIvs  []*metrics.Interval // the reference cut per second of the stream
	errs    []map[string]int64  // errors by class per process, all operations
	start   []time.Time
	service bool
}

// offsets are the processes' start times after t0: all within one second,
// so that their k-th intervals end in the same wall-clock second.
var offsets = []time.Duration{100 * time.Millisecond, 400 * time.Millisecond, 700 * time.Millisecond}

func newSplit(t *testing.T, service bool) *split {
	t.Helper()
	rng := rand.New(rand.NewPCG(11, 12))
	sp := &split{dir: t.TempDir(), service: service}
	opt := metrics.Options{Shards: 2, Service: service}
	ref := metrics.NewRecorder(ops, opt)
	ref.Reset(t0)
	sp.ref = metrics.NewTotals(ops, service)
	recs := make([]*metrics.Recorder, procs)
	totals := make([]*metrics.Totals, procs)
	hlogs := make([]sink.Sink, procs)
	series := make([][]results.IntervalSummary, procs)
	for p := range procs {
		sp.start = append(sp.start, t0.Add(offsets[p]))
		recs[p] = metrics.NewRecorder(ops, opt)
		recs[p].Reset(sp.start[p])
		totals[p] = metrics.NewTotals(ops, service)
		sp.json = append(sp.json, filepath.Join(sp.dir, fmt.Sprintf("p%d.json", p)))
		sp.hlog = append(sp.hlog, filepath.Join(sp.dir, fmt.Sprintf("p%d.hlog", p)))
		hl, err := sink.CreateHlog(sp.hlog[p])
		if err != nil {
			t.Fatal(err)
		}
		hlogs[p] = hl
		sp.errs = append(sp.errs, map[string]int64{})
	}
	for sec := range seconds {
		for i := range 2000 {
			p, op := rng.IntN(procs), rng.IntN(len(ops))
			lat := time.Duration(rng.ExpFloat64()*1.5e6) + time.Duration(rng.IntN(400))*time.Microsecond
			for _, r := range []*metrics.Recorder{recs[p], ref} {
				switch {
				case i%97 == 0:
					class := []string{"timeout", "DuplicateKey(11000)"}[op]
					r.Shard(i).RecordError(op, class)
					if r == ref {
						sp.errs[p][class]++
					}
				default:
					d := metrics.Docs{Returned: int64(i % 3), Shaped: 1}
					if i%3 == 0 {
						d.Empty = 1
					}
					r.Shard(i).RecordServiceDocs(op, lat, lat/2, d)
				}
			}
		}
		for p := range procs {
			end := sp.start[p].Add(time.Duration(sec+1) * time.Second)
			iv := recs[p].Interval(end)
			totals[p].Add(iv)
			snap := sink.NewSnapshot(iv, end.Sub(sp.start[p]))
			series[p] = append(series[p], snap.Summary) // as a run keeps its series
			hlogs[p].Interval(snap)
		}
		iv := ref.Interval(t0.Add(time.Duration(sec+1) * time.Second))
		sp.ref.Add(iv)
		sp.refIvs = append(sp.refIvs, iv)
	}
	for p := range procs {
		res := results.Build(info(p, service), totals[p], series[p])
		if err := hlogs[p].Close(res); err != nil {
			t.Fatal(err)
		}
		if err := results.WriteJSON(sp.json[p], res); err != nil {
			t.Fatal(err)
		}
	}
	return sp
}

func info(p int, service bool) results.RunInfo {
	load := results.LoadModel{Type: results.Closed, Concurrency: 4, Partition: fmt.Sprintf("%d/%d", p, procs)}
	if service {
		load = results.LoadModel{Type: results.Open, Rate: 1000, Concurrency: 100, Partition: fmt.Sprintf("%d/%d", p, procs)}
	}
	return results.RunInfo{Tool: tool, Workload: results.Workload{Name: "flights"}, Load: load, OpTypes: types,
		Warmup: time.Second, Outcome: results.Completed}
}

func readAll(t *testing.T, paths ...string) []*Source {
	t.Helper()
	var srcs []*Source
	for _, p := range paths {
		s, err := Read(p)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, s)
	}
	return srcs
}

// TestMergeEqualsTheWholeStream protects the merge command's central
// promise: one stream of latencies split across three processes' files and
// merged gives exactly the percentiles of the whole stream, because
// histograms are added, never percentiles averaged; counts and errors add
// up; throughput is over the span from the earliest start to the latest
// end. Results files, interval logs and a mix of both must all agree.
func TestMergeEqualsTheWholeStream(t *testing.T) {
	sp := newSplit(t, true)
	want := results.Build(info(0, true), sp.ref, nil)
	allErrs := map[string]int64{}
	for _, m := range sp.errs {
		for c, n := range m {
			allErrs[c] += n
		}
	}
	tests := []struct {
		name        string
		inputs      []string
		errors      map[string]int64 // errors the merged result must count
		fromResults int              // inputs that are results files (which say their rate)
	}{
		// every process wrote a results file
		{"results files", sp.json, allErrs, 3},
		// interval logs carry latencies but no errors
		{"interval logs", sp.hlog, map[string]int64{}, 0},
		// a process whose results file was lost is merged from its log
		{"mixed", []string{sp.json[0], sp.json[1], sp.hlog[2]}, sumErrs(sp.errs[0], sp.errs[1]), 2},
		// files told by their content, not their names (promises6 case 8):
		// an interval log named .json, a results file gzipped as a
		// history store keeps it, a results file named .hlog
		{"named otherwise", misnamed(t, sp), sumErrs(sp.errs[1], sp.errs[2]), 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Merge(readAll(t, tt.inputs...), tool)
			if err != nil {
				t.Fatal(err)
			}
			for i, w := range want.Operations {
				g := got.Operations[i]
				if g.Name != w.Name || g.Count != w.Count || g.Latency != w.Latency || *g.Service != *w.Service {
					t.Errorf("%s: got count %d latency %+v service %+v\nwant count %d latency %+v service %+v",
						w.Name, g.Count, g.Latency, *g.Service, w.Count, w.Latency, *w.Service)
				}
				// Results files carry document counts, which add up to the
				// whole stream's; interval logs carry none.
				if tt.name == "results files" && (g.Docs == nil || w.Docs == nil || *g.Docs != *w.Docs) {
					t.Errorf("%s: docs %+v, the whole stream's %+v", w.Name, g.Docs, w.Docs)
				}
				gh, _ := g.LatencyHistogram()
				if !gh.Equals(sp.ref.Op(i).Latency) {
					t.Errorf("%s: merged histogram differs from the whole stream's", w.Name)
				}
			}
			if tt.name == "results files" {
				var series metrics.Docs
				for _, iv := range got.Intervals {
					for _, o := range iv.Ops {
						if o.Docs != nil {
							series.Add(*o.Docs)
						}
					}
				}
				if got.Totals.Docs == nil || *got.Totals.Docs != *want.Totals.Docs || series != *want.Totals.Docs {
					t.Errorf("docs: totals %+v, intervals %+v, the whole stream's %+v", got.Totals.Docs, series, want.Totals.Docs)
				}
			}
			if got.Totals.Latency != want.Totals.Latency || got.Totals.Operations != want.Totals.Operations {
				t.Errorf("totals %+v, want %+v", got.Totals, want.Totals)
			}
			if len(got.Totals.ErrorsByClass)+len(tt.errors) > 0 && fmt.Sprint(got.Totals.ErrorsByClass) != fmt.Sprint(tt.errors) {
				t.Errorf("errors %v, want %v", got.Totals.ErrorsByClass, tt.errors)
			}
			span := sp.start[procs-1].Add(seconds * time.Second).Sub(sp.start[0]).Seconds()
			if got.DurationSeconds != span || !got.StartedAt.Equal(sp.start[0]) {
				t.Errorf("duration %v from %v, want %v from %v", got.DurationSeconds, got.StartedAt, span, sp.start[0])
			}
			if tput := math.Round(float64(want.Totals.Operations)/span*1000) / 1000; got.Totals.Throughput != tput {
				t.Errorf("throughput %v, want %v", got.Totals.Throughput, tput)
			}
			// Only results files say what rate their process aimed at.
			if wantRate := 1000 * float64(tt.fromResults); len(got.Merged.Sources) != len(tt.inputs) || got.Load.Rate != wantRate || got.Load.Partition != "" {
				t.Errorf("merged %d sources, rate %v (want %v), partition %q", len(got.Merged.Sources), got.Load.Rate, wantRate, got.Load.Partition)
			}
		})
	}
}

func sumErrs(ms ...map[string]int64) map[string]int64 {
	out := map[string]int64{}
	for _, m := range ms {
		for c, n := range m {
			out[c] += n
		}
	}
	return out
}

// TestMergeAlignsIntervals protects the merged series: intervals of the
// processes that end in the same wall-clock second are added, counts
// exactly; percentiles are exact from interval logs, and from results
// files, which keep no per-interval histograms, the largest of the
// processes' values, flagged.
func TestMergeAlignsIntervals(t *testing.T) {
	sp := newSplit(t, false)
	var parts []*results.Result
	for _, p := range sp.json {
		r, err := results.ReadJSON(p)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, r)
	}
	for _, tt := range []struct {
		name   string
		inputs []string
		exact  bool
	}{
		{"results files", sp.json, false}, // percentiles are upper bounds
		{"interval logs", sp.hlog, true},  // percentiles are exact
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Merge(readAll(t, tt.inputs...), tool)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Intervals) != seconds {
				t.Fatalf("%d merged intervals, want %d", len(got.Intervals), seconds)
			}
			for k, is := range got.Intervals {
				ref := results.Summarize(sp.refIvs[k], 0)
				if wantT := round3(float64(k+1) + offsets[procs-1].Seconds() - offsets[0].Seconds()); is.T != wantT || is.Dt != 1 {
					t.Errorf("interval %d: t %v dt %v, want t %v dt 1", k, is.T, is.Dt, wantT)
				}
				for i, o := range is.Ops {
					r := ref.Ops[i]
					if tt.exact {
						r.Errors = 0 // interval logs hold no errors
					}
					if o.Count != r.Count || o.Errors != r.Errors || o.Rate != float64(r.Count) {
						t.Errorf("interval %d %s: count %d errors %d rate %v, want %d %d %d", k, o.Name, o.Count, o.Errors, o.Rate, r.Count, r.Errors, r.Count)
					}
					if o.Max != r.Max {
						t.Errorf("interval %d %s: max %v, want %v", k, o.Name, o.Max, r.Max)
					}
					exact := o.P50 == r.P50 && o.P95 == r.P95 && o.P99 == r.P99
					if tt.exact && (!exact || o.PercentilesUpperBound) {
						t.Errorf("interval %d %s: p50/95/99 %v %v %v, want exactly %v %v %v", k, o.Name, o.P50, o.P95, o.P99, r.P50, r.P95, r.P99)
					}
					if tt.exact {
						continue
					}
					var p50, p99 float64
					for _, part := range parts {
						p50, p99 = max(p50, part.Intervals[k].Ops[i].P50), max(p99, part.Intervals[k].Ops[i].P99)
					}
					if !o.PercentilesUpperBound || o.P50 != p50 || o.P99 != p99 {
						t.Errorf("interval %d %s: p50 %v p99 %v (flagged %v), want the largest of the processes' %v %v, flagged", k, o.Name, o.P50, o.P99, o.PercentilesUpperBound, p50, p99)
					}
				}
			}
		})
	}
}

// TestMergeRejectsIncompatibleInputs: files that are not processes of one
// run are refused with a message that names them and says why.
func TestMergeRejectsIncompatibleInputs(t *testing.T) {
	closed := newSplit(t, false)
	open := newSplit(t, true)
	dir := t.TempDir()
	edited := func(name string, f func(*results.Result)) string {
		res, err := results.ReadJSON(closed.json[1])
		if err != nil {
			t.Fatal(err)
		}
		f(res)
		p := filepath.Join(dir, name)
		if err := results.WriteJSON(p, res); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	otherWorkload := edited("other.json", func(r *results.Result) { r.Workload.Name = "ycsb-a" })
	otherOps := edited("ops.json", func(r *results.Result) { r.Operations = r.Operations[:1] })
	samePart := edited("part.json", func(r *results.Result) { r.Load.Partition = "0/3" })
	otherN := edited("n.json", func(r *results.Result) { r.Load.Partition = "1/2" })
	damaged := edited("damaged.json", func(r *results.Result) { r.Operations[0].Count++ })
	// The results file keeps nanoseconds, its log milliseconds (issue 25 #4:
	// 1.3 ms apart, it was merged with its own log and counted twice).
	subMilli := edited("submilli.json", func(r *results.Result) {
		r.StartedAt = r.StartedAt.Add(430 * time.Microsecond)
		r.EndedAt = r.EndedAt.Add(1345 * time.Microsecond)
	})
	otherConcurrency := edited("c.json", func(r *results.Result) { r.Load.Partition = ""; r.Load.Concurrency = 100_000 })
	solo := edited("solo.json", func(r *results.Result) { r.Load.Partition = "" })
	later := edited("later.json", func(r *results.Result) {
		r.Load.Partition = ""
		r.StartedAt = r.EndedAt.Add(16 * time.Second)
		r.EndedAt = r.StartedAt.Add(2 * time.Second)
	})
	// A histogram in nanoseconds from another tool, which mongoload cannot add exactly.
	ns := hdrhistogram.New(1, int64(time.Minute), 3)
	_ = ns.RecordValue(int64(2 * time.Millisecond))
	enc, err := ns.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		t.Fatal(err)
	}
	foreign := write("foreign.hlog", "Tag=find_by_id,0.000,1.000,2.000,"+string(enc)+"\n")
	empty := write("empty.hlog", "#[Histogram log format version 1.3]\n")

	tests := []struct {
		name   string
		inputs []string
		want   []string // fragments of the error
	}{
		{"nothing", nil, []string{"nothing to merge"}},                                                    // no input at all
		{"same file twice", []string{closed.json[0], closed.json[0]}, []string{"given twice"}},            // double counting
		{"other workload", []string{closed.json[0], otherWorkload}, []string{"flights", "ycsb-a"}},        // not one run
		{"other operations", []string{closed.json[0], otherOps}, []string{"different operations"}},        // not one run
		{"closed and open", []string{closed.json[0], open.json[1]}, []string{"service times", "p1.json"}}, // latencies differ
		{"log without service times", []string{open.json[0], closed.hlog[1]}, []string{"service times"}},  // same, via a log
		{"same partition", []string{closed.json[0], samePart}, []string{"both ran partition 0/3"}},        // a process twice
		{"partitions of other runs", []string{closed.json[0], otherN}, []string{"of 2 processes"}},        // 3 vs 2 processes
		{"damaged histogram", []string{damaged}, []string{"damaged"}},                                     // count and histogram disagree
		{"foreign log", []string{closed.hlog[0], foreign}, []string{"not mongoload's"}},                   // other units
		{"empty log", []string{empty}, []string{"no interval histograms"}},                                // nothing in it
		{"results and own log", []string{closed.json[1], closed.hlog[1]}, []string{"count it twice"}},     // one process twice
		{"results and own log, to the log's ms", []string{subMilli, closed.hlog[1]}, []string{"count it twice"}},
		{"another concurrency", []string{solo, otherConcurrency}, []string{"concurrency", "not processes of one run"}},
		{"runs that did not overlap", []string{solo, later}, []string{"16s before", "not processes of one run"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var srcs []*Source
			var err error
			for _, p := range tt.inputs {
				var s *Source
				if s, err = Read(p); err != nil {
					break
				}
				srcs = append(srcs, s)
			}
			if err == nil {
				_, err = Merge(srcs, tool)
			}
			if err == nil {
				t.Fatal("merged without an error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

// TestMergeNotes: a merge says what a reader must know: missing partitions,
// gaps between the processes' measured phases, logs without errors.
func TestMergeNotes(t *testing.T) {
	sp := newSplit(t, false)
	late, err := results.ReadJSON(sp.json[2])
	if err != nil {
		t.Fatal(err)
	}
	late.StartedAt = late.StartedAt.Add(time.Minute)
	late.EndedAt = late.EndedAt.Add(time.Minute)
	p := filepath.Join(t.TempDir(), "late.json")
	if err := results.WriteJSON(p, late); err != nil {
		t.Fatal(err)
	}
	got, err := Merge(readAll(t, sp.json[0], sp.hlog[1], p), tool)
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(got.Notes, "\n")
	for _, want := range []string{"partition 1/3 of the run is not among the inputs", "uncovered between them", "p1.hlog is an interval log, which holds no error counts"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
}
