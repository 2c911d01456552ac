package cli

import (
	"context"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mongoload/mongoload/internal/testserver"
)

// stampedWriter notes when a line containing mark was first written.
type stampedWriter struct {
	lockedBuffer
	mark string
	once sync.Once
	at   time.Time
}

func (w *stampedWriter) Write(p []byte) (int, error) {
	if strings.Contains(string(p), w.mark) {
		w.once.Do(func() { w.at = time.Now() })
	}
	return w.lockedBuffer.Write(p)
}

// TestFaultPostPhaseBoundFrozenServer is issue 25 #9: with the server
// frozen (SIGSTOP) as --duration ends, docs/reliability.md promises 3 s in
// all from abandoning the operations in flight to the exit; it took 5.5 s
// (the telemetry's close waited for a final sample on the run's context,
// and closing the client waited for the frozen server's goodbye). The
// strike comes on an event: the server holds inserts of the run. The
// results file is written and says what was abandoned.
func TestFaultPostPhaseBoundFrozenServer(t *testing.T) {
	testserver.Timing(t)
	srv := testserver.OwnServer(t)
	db := "ml_frozen_" + strconv.FormatInt(time.Now().UnixNano()%1e6, 10)
	w := writeFile(t, "w.yaml", `
collections:
  - {database: `+db+`, name: c, template: {_id: {$gen: key}, v: {$gen: int, min: 0, max: 9}}}
operations:
  - {name: get, type: findOne, weight: 3, filter: {_id: {$gen: key}}}
  - {name: put, type: insertOne, weight: 1}
`)
	d := openDB(t, srv.URI)
	out := writeFile(t, "r.json", "")
	stderr := &stampedWriter{mark: "abandoning"}
	done := make(chan int, 1)
	go func() {
		done <- Run(context.Background(), []string{"run", w, "--uri", srv.URI, "--seed", "1000", "--duration", "4s", "--grace", "1s", "--quiet", "--out", out},
			IO{Stdout: &lockedBuffer{}, Stderr: stderr, Getenv: func(string) (string, bool) { return "", false }})
	}()
	testserver.Await(t, time.Minute, "the run's inserts on the server", func() bool { return d.count(db, "c") >= 2000 })
	srv.Pause()
	defer srv.Resume()
	code := <-done
	exited := time.Now()
	if stderr.at.IsZero() {
		t.Fatalf("exit %d, and nothing was abandoned:\n%s", code, stderr.String())
	}
	if took := exited.Sub(stderr.at); took > 3*time.Second {
		t.Errorf("%s from abandoning to exit; docs/reliability.md promises 3s in all:\n%s", took.Round(10*time.Millisecond), stderr.String())
	}
	if code != 0 || !strings.Contains(stderr.String(), "results written to") {
		t.Errorf("exit %d, want 0 and the results written:\n%s", code, stderr.String())
	}
	// Once the bound ran out, no step connects again: explain's connection
	// once waited a second more for the frozen server's goodbye (3.0 s in
	// all, one run in five).
	if b, err := os.ReadFile(out); err != nil || !strings.Contains(string(b), "no explain and no collection statistics after the run: the server did not answer within 2s") {
		t.Errorf("the results do not say why there is no explain (%v):\n%.2000s", err, b)
	}
}
