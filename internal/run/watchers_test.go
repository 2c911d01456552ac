package run

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/engine"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/testserver"
	"github.com/mongoload/mongoload/internal/watch"
	"github.com/mongoload/mongoload/internal/workload/workloadtest"
)

func TestMain(m *testing.M) { testserver.Main(m) }

// TestInterruptWhileWatchersDrain: Ctrl-C after the measured phase,
// while the watchers wait for their streams to deliver the run's last
// writes, is an interrupt like any other (it completed, exit 0, before):
// the run's outcome is interrupted, the results file is written with what
// was collected, and the watchers are undrained without a verdict on
// their pace (the wait was cut, not outlasted). The server is paused
// when the measured phase ends, so the streams cannot catch up before
// the interrupt comes.
func TestInterruptWhileWatchersDrain(t *testing.T) {
	srv := testserver.OwnServer(t)
	src := fmt.Sprintf(`
collections:
  - {database: drainint, name: events, template: {n: {$gen: int, min: 1, max: 9}}}
operations:
  - {name: add, type: insertOne, weight: 1}
watchers:
  - {name: feed, collection: events}
run: {concurrency: 2, operations: 300, warmup: 0s}
connection: {uri: %q}
`, srv.URI)
	cfg, plan := workloadtest.Compile(t, []byte(src), "drain.yaml")
	cfg.Run.Out = filepath.Join(t.TempDir(), "r.json")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var interrupted time.Time
	opts := Options{OnPhase: func(p Phase) {
		if p == PhaseCollect {
			srv.Pause() // the streams' next waits hang: they cannot drain
			interrupted = time.Now()
			cancel()
		}
	}}
	t.Cleanup(srv.Resume) // before the server is stopped
	r, err := Run(ctx, cfg, plan, opts)
	if err != nil {
		t.Fatal(err)
	}
	// A hang guard, not a timing claim: the post-run steps wait out their
	// bound on the paused server (about 7 s on a loaded host).
	if took := time.Since(interrupted); took > 2*watch.DrainLimit {
		t.Errorf("the run took %s to end after the interrupt", took)
	}
	if k, _ := KindOf(r.Err()); r.Outcome != engine.Interrupted || k != Interrupted {
		t.Fatalf("outcome %v, error %v: want interrupted", r.Outcome, r.Err())
	}
	file, err := results.ReadJSON(cfg.Run.Out)
	if err != nil {
		t.Fatal(err)
	}
	if file.Outcome != results.Interrupted || len(file.Watchers) != 1 || file.Totals.Operations != 300 {
		t.Fatalf("file: outcome %q, %d watchers, %d operations: want interrupted, 1 watcher, the 300 measured", file.Outcome, len(file.Watchers), file.Totals.Operations)
	}
	if w := file.Watchers[0]; !w.Undrained || w.FallingBehind || w.Verdict != "" {
		t.Errorf("watcher %+v: want undrained, with no verdict on its pace", w)
	}
}
