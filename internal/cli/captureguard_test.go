package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/testserver"
)

// profiledApp makes db with one collection and runs finds against it
// until the test ends; it returns how many ran so far.
func profiledApp(t *testing.T, ctx context.Context, cl *mongodb.Client, db string) *atomic.Int64 {
	t.Helper()
	t.Cleanup(func() {
		_, _ = cl.Command(context.Background(), db, bson.D{{Key: "dropDatabase", Value: 1}})
	})
	if _, err := cl.Command(ctx, db, bson.D{{Key: "insert", Value: "people"}, {Key: "documents", Value: bson.A{bson.D{{Key: "n", Value: 1}}}}}); err != nil {
		t.Fatal(err)
	}
	actx, cancel := context.WithCancel(ctx)
	var n atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		for actx.Err() == nil {
			if _, err := cl.Command(actx, db, bson.D{{Key: "find", Value: "people"}, {Key: "filter", Value: bson.D{{Key: "n", Value: n.Load() % 7}}}}); err == nil {
				n.Add(1)
			}
		}
	}()
	t.Cleanup(func() { cancel(); <-done })
	return &n
}

// TestCaptureMeasuresAndBoundsItsImpact: an application runs finds while
// capture turns the profiler on with a bound it cannot keep (0.001%):
// the window opens at sampleRate 0.01, and the profiler at level 2 costs
// the test server about nine times its CPU per operation, so it never
// runs at the full rate (at most one raise, to 0.1, on a second whose
// noise read as no cost); the capture either ends the window (exit 28,
// the impact named) or keeps the rate low. The console names the impact
// measured, the file records the sample rate, and the profiler is back at
// level 0 after; the oracle is the server's own profile setting.
func TestCaptureMeasuresAndBoundsItsImpact(t *testing.T) {
	uri := testserver.URI(t)
	ctx := context.Background()
	cl := connectTest(t, ctx, uri)
	db := fmt.Sprintf("capguard_%d", os.Getpid())
	ran := profiledApp(t, ctx, cl, db)
	out := filepath.Join(t.TempDir(), "w.yaml")
	code, stdout, errs := runCLI(t, ctx, map[string]string{"XDG_STATE_HOME": t.TempDir()}, "capture", "--uri", uri, "--database", db,
		"--enable-profiler", "--duration", "15s", "--max-impact", "0.001%", "--out", out)
	all := stdout + errs
	if code != 0 && code != ExitProtected {
		t.Fatalf("exit %d: %s", code, all)
	}
	if ran.Load() == 0 {
		t.Fatal("the application ran nothing")
	}
	if !regexp.MustCompile(`impact on the source: throughput [-+][0-9.]+%, latency ([-+][0-9.]+%|not measured)`).MatchString(all) {
		t.Errorf("no impact measured in the output:\n%s", all)
	}
	if !strings.Contains(all, "sampleRate 0.01") {
		t.Errorf("the window did not open at sampleRate 0.01 under --max-impact:\n%s", all)
	}
	if strings.Contains(all, "raised to 1") {
		t.Errorf("a bound of 0.001%% let the profiler run at the full rate:\n%s", all)
	}
	if code == ExitProtected && !regexp.MustCompile(`(?m)^mongoload: the profiler cost the source .*[0-9]%.*even at sampleRate 0.01`).MatchString(errs) {
		t.Errorf("exit 28 without the line naming the impact:\n%s", errs)
	}
	// A guard that trips before the window's first entry was read (on a
	// loaded host it can) has nothing to write, and says so.
	if data, err := os.ReadFile(out); err != nil {
		if code != ExitProtected || !strings.Contains(errs, "no operation to capture") {
			t.Fatalf("%v, and no line saying nothing was read:\n%s", err, all)
		}
	} else if !regexp.MustCompile(`sampleRate 0\.01`).Match(data) {
		t.Errorf("the file does not record the sample rate of the window:\n%s", data)
	}
	st, err := cl.Profiler(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if st.Level != 0 {
		t.Errorf("the profiler was left at level %d (sampleRate %g), want 0 as it was found", st.Level, st.SampleRate)
	}
}

// TestConcurrentCapturesShareTheProfiler: a second --enable-profiler
// capture of the same database starts while the first's window is open
// and ends after it; when the first ends, the profiler must still be on
// (the second is reading it), and once the second ends it is back at the
// level the first found. The oracle is the server's profile setting.
func TestConcurrentCapturesShareTheProfiler(t *testing.T) {
	uri := testserver.URI(t)
	ctx := context.Background()
	cl := connectTest(t, ctx, uri)
	db := fmt.Sprintf("capshare_%d", os.Getpid())
	profiledApp(t, ctx, cl, db)
	env := map[string]string{"XDG_STATE_HOME": t.TempDir()} // one host: one state directory
	type result struct {
		code int
		out  string
	}
	capture := func(window string, done chan<- result) {
		code, stdout, errs := runCLI(t, ctx, env, "capture", "--uri", uri, "--database", db, "--enable-profiler",
			"--duration", window, "--out", filepath.Join(t.TempDir(), "w.yaml"))
		done <- result{code, stdout + errs}
	}
	first, second := make(chan result, 1), make(chan result, 1)
	go capture("4s", first)
	// The second starts once the first's window is open: the profiler on.
	deadline := time.Now().Add(30 * time.Second)
	for {
		st, err := cl.Profiler(ctx, db)
		if err == nil && st.Level == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the first capture never turned the profiler on")
		}
		time.Sleep(50 * time.Millisecond)
	}
	go capture("10s", second)
	a := <-first
	if a.code != 0 {
		t.Fatalf("first capture: exit %d: %s", a.code, a.out)
	}
	select {
	case b := <-second:
		t.Fatalf("the second capture ended before the first (exit %d), the test proves nothing: %s", b.code, b.out)
	default:
	}
	if st, err := cl.Profiler(ctx, db); err != nil || st.Level != 2 {
		t.Errorf("the first capture turned the profiler to level %d (%v) in the middle of the second's window:\n%s", st.Level, err, a.out)
	}
	b := <-second
	if b.code != 0 {
		t.Fatalf("second capture: exit %d: %s", b.code, b.out)
	}
	if !strings.Contains(a.out, "impact on the source: throughput") {
		t.Errorf("the first capture does not say what the profiler cost the source:\n%s", a.out)
	}
	if !strings.Contains(b.out, "this one shares it") {
		t.Errorf("the second capture does not say it shares the profiler:\n%s", b.out)
	}
	if st, err := cl.Profiler(ctx, db); err != nil || st.Level != 0 {
		t.Errorf("after both captures the profiler is at level %d (%v), want 0 as the first found it", st.Level, err)
	}
}
