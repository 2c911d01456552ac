package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/testserver"
)

// profiled makes database db of uri with one collection and its profiler
// at level 0, slowms 100 and sampleRate 0.5 (all three unlike what
// --enable-profiler sets), and returns a client to check it with.
func profiled(t *testing.T, uri, db string) *mongodb.Client {
	t.Helper()
	ctx := context.Background()
	cl, err := mongodb.Connect(ctx, config.Connection{URI: uri})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cl.SetProfiler(context.Background(), db, mongodb.ProfilerState{Level: 0, SlowMS: 100, SampleRate: 1})
		_, _ = cl.Command(context.Background(), db, bson.D{{Key: "dropDatabase", Value: 1}})
		cl.Close()
	})
	if _, err := cl.Command(ctx, db, bson.D{{Key: "insert", Value: "people"}, {Key: "documents", Value: bson.A{bson.D{{Key: "n", Value: 1}}}}}); err != nil {
		t.Fatal(err)
	}
	if err := cl.SetProfiler(ctx, db, mongodb.ProfilerState{Level: 0, SlowMS: 100, SampleRate: 0.5}); err != nil {
		t.Fatal(err)
	}
	return cl
}

// startCapture runs mongoload capture as its own process (signals reach
// main's own handling), its markers under state; it returns the command
// and its stderr.
func startCapture(t *testing.T, state string, args string) (*exec.Cmd, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "MONGOLOAD_RUN_MAIN=1", "XDG_STATE_HOME="+state, "MONGOLOAD_ARGS=capture "+args)
	var errb syncBuffer
	cmd.Stderr, cmd.Stdout = &errb, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	return cmd, &errb
}

// exitCode waits for cmd: its exit code, 128+signal when a signal ended it.
func exitCode(cmd *exec.Cmd) int {
	var ee *exec.ExitError
	if err := cmd.Wait(); errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ee.ExitCode()
	}
	return 0
}

func profilerOf(t *testing.T, cl *mongodb.Client, db string) mongodb.ProfilerState {
	t.Helper()
	st, err := cl.Profiler(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func markers(t *testing.T, state string) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(state, "mongoload", "profiler-*.json"))
	return m
}

// TestCaptureSecondCtrlCRestoresTheProfiler: two Ctrl-C in a row during an
// --enable-profiler window exit 130 with the profiler as it was found
// (level, slowms and sample rate), and no marker left: the second Ctrl-C
// restores before it exits.
func TestCaptureSecondCtrlCRestoresTheProfiler(t *testing.T) {
	uri := testserver.URI(t)
	db := fmt.Sprintf("capctrlc_%d", os.Getpid())
	cl := profiled(t, uri, db)
	state := t.TempDir()
	cmd, errb := startCapture(t, state, "--uri "+uri+" --database "+db+" --enable-profiler --duration 60s --out "+filepath.Join(t.TempDir(), "w.yaml"))
	testserver.Await(t, time.Minute, "the window", func() bool { return strings.Contains(errb.String(), "for the window") })
	if st := profilerOf(t, cl, db); st.Level != 2 || len(markers(t, state)) != 1 {
		t.Fatalf("during the window: profiler %+v, markers %v; want level 2 and one marker", st, markers(t, state))
	}
	_ = cmd.Process.Signal(os.Interrupt)
	_ = cmd.Process.Signal(os.Interrupt)
	code := exitCode(cmd)
	st := profilerOf(t, cl, db)
	if st.Level != 0 || st.SlowMS != 100 || st.SampleRate != 0.5 {
		t.Errorf("exit %d, profiler left at %+v; want level 0, slowms 100, sampleRate 0.5:\n%s", code, st, errb.String())
	}
	if code != 130 && code != 20 && code != 3 {
		t.Errorf("exit %d:\n%s", code, errb.String())
	}
	if m := markers(t, state); len(m) != 0 {
		t.Errorf("markers %v left after a restore", m)
	}
}

// TestCaptureAfterAKilledCapture: a capture killed during its window
// (SIGKILL: no code of its runs) leaves the profiler on, and its marker.
// The next capture without --enable-profiler says so and the line that
// restores it, and changes nothing; the next with --enable-profiler
// restores the level the killed one found, not the level 2 it left.
func TestCaptureAfterAKilledCapture(t *testing.T) {
	uri := testserver.URI(t)
	db := fmt.Sprintf("capkill_%d", os.Getpid())
	cl := profiled(t, uri, db)
	state := t.TempDir()
	out := filepath.Join(t.TempDir(), "w.yaml")
	cmd, errb := startCapture(t, state, "--uri "+uri+" --database "+db+" --enable-profiler --duration 60s --out "+out)
	testserver.Await(t, time.Minute, "the window", func() bool { return strings.Contains(errb.String(), "for the window") })
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if st := profilerOf(t, cl, db); st.Level != 2 || len(markers(t, state)) != 1 {
		t.Fatalf("after SIGKILL: profiler %+v, markers %v; want level 2 left on, and its marker", st, markers(t, state))
	}

	cmd, errb = startCapture(t, state, "--uri "+uri+" --database "+db+" --out "+out)
	exitCode(cmd)
	for _, want := range []string{"ended without restoring it", "it was at level 0 (slowms 100) before", `setProfilingLevel(0, {slowms: 100, sampleRate: 0.5})`} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("a capture without --enable-profiler does not say %q:\n%s", want, errb.String())
		}
	}
	if st := profilerOf(t, cl, db); st.Level != 2 {
		t.Errorf("a capture without --enable-profiler changed the profiler to %+v", st)
	}

	cmd, errb = startCapture(t, state, "--uri "+uri+" --database "+db+" --enable-profiler --duration 1s --out "+out)
	exitCode(cmd)
	st := profilerOf(t, cl, db)
	if st.Level != 0 || st.SlowMS != 100 || st.SampleRate != 0.5 || len(markers(t, state)) != 0 {
		t.Errorf("after the next --enable-profiler: profiler %+v, markers %v; want level 0, slowms 100, sampleRate 0.5, none:\n%s", st, markers(t, state), errb.String())
	}
}

// TestCaptureCtrlCOnAFrozenServer: Ctrl-C during a window on a server
// that no longer answers (SIGSTOP) exits within seconds, the window ends
// at Ctrl-C (the rate is over what was read, not over the wait), and the
// profiler it could not restore is named with the line that restores it.
func TestCaptureCtrlCOnAFrozenServer(t *testing.T) {
	testserver.Timing(t)
	srv := testserver.OwnServer(t)
	db := "capfrozen"
	cl := profiled(t, srv.URI, db)
	out := filepath.Join(t.TempDir(), "w.yaml")
	cmd, errb := startCapture(t, t.TempDir(), "--uri "+srv.URI+" --database "+db+" --enable-profiler --duration 60s --server-selection-timeout 2s --out "+out)
	testserver.Await(t, time.Minute, "the window", func() bool { return strings.Contains(errb.String(), "for the window") })
	begin := time.Now()
	for i := range 50 {
		if _, err := cl.Command(context.Background(), db, bson.D{{Key: "find", Value: "people"}, {Key: "filter", Value: bson.D{{Key: "n", Value: i}}}}); err != nil {
			t.Fatal(err)
		}
	}
	testserver.Await(t, time.Minute, "the first entry", func() bool { return strings.Contains(errb.String(), "the first entry of the window arrived") })
	srv.Pause()
	defer srv.Resume()
	_ = cmd.Process.Signal(os.Interrupt)
	sent := time.Now()
	code := exitCode(cmd)
	took := time.Since(sent)
	srv.Resume()
	t.Logf("exit %d after %s\n%s", code, took, errb.String())
	if took > 8*time.Second {
		t.Errorf("exit %s after Ctrl-C", took)
	}
	// The window's end, to the second, is in the source's line whatever
	// was read; a window that waited on the frozen server (2 s of server
	// selection at least) would end past the second after Ctrl-C.
	end := regexp.MustCompile(`source: profiler, .* to (\S+Z)`).FindStringSubmatch(errb.String())
	if end == nil {
		t.Fatalf("no window in the summary")
	}
	if to, err := time.Parse(time.RFC3339, end[1]); err != nil || to.After(sent.Add(time.Second)) {
		t.Errorf("the window ends at %s, after Ctrl-C at %s", end[1], sent.UTC().Format(time.RFC3339Nano))
	}
	// The rate, when the capture read enough entries before the server
	// froze to have one (it may have read only the first), is over the
	// window to the millisecond.
	if m := regexp.MustCompile(`over the ([0-9.]+)(m?s) window`).FindStringSubmatch(errb.String()); m != nil {
		win, _ := strconv.ParseFloat(m[1], 64)
		if m[2] == "ms" {
			win /= 1000
		}
		if max := sent.Sub(begin).Seconds() + 1; win > max {
			t.Errorf("the window is %gs, longer than the %gs to Ctrl-C", win, max)
		}
	}
	if !strings.Contains(errb.String(), "setProfilingLevel(0, {slowms: 100, sampleRate: 0.5})") {
		t.Errorf("the profiler it could not restore is not named with its mongosh line")
	}
}
