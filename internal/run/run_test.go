package run

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/sink"
	"github.com/mongoload/mongoload/internal/workload"
	"github.com/mongoload/mongoload/internal/workload/workloadtest"
)

// noopWorkload is a small mix run with --target noop: the whole pipeline
// without a server, so these tests need none.
const noopWorkload = `
collections:
  - {database: d, name: c, template: {k: {$gen: key}, v: {$gen: int, min: 1, max: 9}}}
operations:
  - {name: get, type: findOne, weight: 3, filter: {k: {$gen: key}}}
  - {name: add, type: insertOne, weight: 1}
run:
  target: noop
  concurrency: 2
  duration: 500ms
  interval: 50ms
  warmup: 0s
  seed: 1000
`

// noopRun is the configuration and plan of noopWorkload, results to a
// file in a fresh directory.
func noopRun(t *testing.T) (*config.Config, *workload.Plan) {
	t.Helper()
	cfg, plan := workloadtest.Compile(t, []byte(noopWorkload), "noop.yaml")
	cfg.Run.Out = filepath.Join(t.TempDir(), "r.json")
	return cfg, plan
}

// TestPhasesEnteredInOrder: a run enters every phase, connect, setup and
// seed included, once and in the order Phases (and the architecture
// document) gives; a session's second run goes through the measured
// phases again. Before the run package, connect, setup and seed were names
// nothing entered.
func TestPhasesEnteredInOrder(t *testing.T) {
	cfg, plan := noopRun(t)
	var mu sync.Mutex
	var got []Phase
	opts := Options{OnPhase: func(p Phase) { mu.Lock(); got = append(got, p); mu.Unlock() }}
	s, err := Open(context.Background(), cfg, plan, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for range 2 {
		r, err := s.Run(context.Background(), cfg)
		if err != nil || r.Err() != nil {
			t.Fatal(err, r.Err())
		}
	}
	want := append(slices.Clone(Phases), Phases[PhaseContext:]...)
	if !slices.Equal(got, want) {
		t.Errorf("phases %v, want %v", got, want)
	}
}

// TestNoopRun: --target noop runs the engine, generators, recorder and
// sinks with no server, and says so in the result.
func TestNoopRun(t *testing.T) {
	cfg, plan := noopRun(t)
	r, err := Run(context.Background(), cfg, plan, Options{})
	if err != nil || r.Err() != nil {
		t.Fatal(err, r.Err())
	}
	if r.Result.Totals.Operations < 1000 || r.Result.Totals.Errors != 0 {
		t.Errorf("%d operations, %d errors in 500ms without a server", r.Result.Totals.Operations, r.Result.Totals.Errors)
	}
	if !strings.Contains(strings.Join(r.Result.Notes, "\n"), "--target noop") || !strings.Contains(r.Result.ConfigLine, "target=noop") {
		t.Errorf("the result does not say no server was used: %q, %q", r.Result.Notes, r.Result.ConfigLine)
	}
}

// stuckSink holds its first interval until released, so the fan-out
// drops what comes after its buffer for it.
type stuckSink struct {
	once    sync.Once
	entered chan struct{}
	release chan struct{}
	got     int
	err     error
}

func (s *stuckSink) Name() string { return "stuck sink" }
func (s *stuckSink) Interval(*sink.Snapshot) {
	s.once.Do(func() { close(s.entered) })
	<-s.release
	s.got++
}
func (s *stuckSink) Close(*results.Result) error { return s.err }

// countSink cancels the run once it has seen n intervals.
type countSink struct {
	n, got int
	cancel context.CancelFunc
}

func (c *countSink) Interval(*sink.Snapshot) {
	if c.got++; c.got == c.n {
		c.cancel()
	}
}
func (c *countSink) Close(*results.Result) error { return nil }

// TestResultsFileIsTheRunsSeries: the results file is written once, from
// the run's own series: a sink that falls behind (the fan-out drops its
// snapshots) leaves no gap in the file, which holds what the returned
// result holds, every interval of the run. The run ends (an interrupt)
// once more intervals were delivered than the fan-out buffers.
func TestResultsFileIsTheRunsSeries(t *testing.T) {
	cfg, plan := noopRun(t)
	cfg.Run.Interval = config.Duration(10 * time.Millisecond)
	cfg.Run.Duration = config.Duration(time.Minute) // a backstop: the count ends it
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stuck := &stuckSink{entered: make(chan struct{}), release: make(chan struct{})}
	opts := Options{Sinks: []sink.Sink{stuck, &countSink{n: sink.FanoutBuffer + 10, cancel: cancel}}, OnPhase: func(p Phase) {
		if p == PhaseCollect {
			close(stuck.release)
		}
	}}
	r, err := Run(ctx, cfg, plan, opts)
	if err != nil {
		t.Fatal(err)
	}
	file, err := results.ReadJSON(cfg.Run.Out)
	if err != nil {
		t.Fatal(err)
	}
	n := len(r.Result.Intervals)
	if n <= sink.FanoutBuffer+1 || stuck.got >= n || !strings.Contains(strings.Join(r.Result.Notes, "\n"), "stuck sink fell behind") {
		t.Fatalf("the stuck sink got %d of %d intervals: the test did not make the fan-out drop (notes %q)", stuck.got, n, r.Result.Notes)
	}
	if len(file.Intervals) != n {
		t.Fatalf("the file holds %d intervals, the result %d", len(file.Intervals), n)
	}
	for i := range file.Intervals {
		if file.Intervals[i].T != r.Result.Intervals[i].T {
			t.Fatalf("interval %d: the file's ends at %v, the result's at %v", i, file.Intervals[i].T, r.Result.Intervals[i].T)
		}
	}
}

// TestResultsFileWriteError: a results file that cannot be written at the
// end is the run's output failure, apart from the sinks'.
func TestResultsFileWriteError(t *testing.T) {
	cfg, plan := noopRun(t)
	dir := filepath.Join(t.TempDir(), "gone")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg.Run.Out = filepath.Join(dir, "r.json")
	opts := Options{OnPhase: func(p Phase) {
		if p == PhaseCollect {
			_ = os.RemoveAll(dir) // the directory goes away while the run measures
		}
	}}
	r, err := Run(context.Background(), cfg, plan, opts)
	if err != nil {
		t.Fatal(err)
	}
	if k, _ := KindOf(r.Err()); r.WriteErr == nil || r.SinkErr != nil || k != Output || !strings.Contains(r.Err().Error(), "r.json") {
		t.Errorf("WriteErr %v, SinkErr %v, Err %v (kind %d): want the results file's failure, of kind Output", r.WriteErr, r.SinkErr, r.Err(), k)
	}
}

// TestSinkErrorIsTheSinks: a sink that fails is reported by its name, and
// the results file is still written and not reported as failed (it was,
// when the results file was one of the fan-out's sinks).
func TestSinkErrorIsTheSinks(t *testing.T) {
	cfg, plan := noopRun(t)
	bad := &stuckSink{entered: make(chan struct{}), release: make(chan struct{}), err: errors.New("terminal gone")}
	close(bad.release)
	r, err := Run(context.Background(), cfg, plan, Options{Sinks: []sink.Sink{bad}})
	if err != nil {
		t.Fatal(err)
	}
	if r.WriteErr != nil || r.SinkErr == nil || !strings.Contains(r.SinkErr.Error(), "stuck sink: terminal gone") {
		t.Errorf("WriteErr %v, SinkErr %v: want the sink's failure, named, and the file written", r.WriteErr, r.SinkErr)
	}
	if _, err := results.ReadJSON(cfg.Run.Out); err != nil {
		t.Errorf("the results file: %v", err)
	}
}

// TestInterruptBeforeMeasuringClosesEverything: a run that stops after its
// sinks opened (here interrupted while waiting for --start-at) closes them
// all, the Prometheus endpoint stops listening, and the results file is
// written with what there is. Before, this path returned without closing
// the fan-out.
func TestInterruptBeforeMeasuringClosesEverything(t *testing.T) {
	cfg, plan := noopRun(t)
	cfg.Run.StartAt = time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	cfg.Run.Prometheus = "127.0.0.1:0"
	cfg.Run.HdrLog = filepath.Join(t.TempDir(), "r.hlog")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var log bytes.Buffer // written on the run's goroutine only: no sampler without a server
	opts := Options{Log: &log, OnPhase: func(p Phase) {
		if p == PhaseContext {
			cancel() // the interrupt: the run then waits for --start-at no more
		}
	}}
	_, err := Run(ctx, cfg, plan, opts)
	if k, _ := KindOf(err); k != Interrupted {
		t.Fatalf("err %v, want an interrupt", err)
	}
	res, rerr := results.ReadJSON(cfg.Run.Out)
	if rerr != nil || res.Outcome != results.Interrupted || !strings.Contains(strings.Join(res.Notes, "\n"), "ended before its result was complete") {
		t.Errorf("results file: %v, %+v", rerr, res)
	}
	m := regexp.MustCompile(`http://(\S+)/metrics`).FindStringSubmatch(log.String())
	if m == nil {
		t.Fatalf("no Prometheus address in the log:\n%s", log.String())
	}
	ln, lerr := net.Listen("tcp", m[1])
	if lerr != nil {
		t.Fatalf("the Prometheus endpoint still listens on %s: %v", m[1], lerr)
	}
	ln.Close()
}
