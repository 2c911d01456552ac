package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/testserver"
	"github.com/mongoload/mongoload/internal/trace"
)

// TestCaptureTraceFile: capture --trace against the real server writes a
// trace that only its owner may read even over an existing world-readable
// file, whose header names the source deployment; a trace that is also
// the workload file, or a standard stream or a terminal, is refused before
// anything is written.
func TestCaptureTraceFile(t *testing.T) {
	ctx := context.Background()
	uri := testserver.URI(t)
	cl := connectTest(t, ctx, uri)
	db := fmt.Sprintf("trfile_%d", os.Getpid())
	t.Cleanup(func() {
		_, _ = cl.Command(context.Background(), db, bson.D{{Key: "profile", Value: 0}})
		_, _ = cl.Command(context.Background(), db, bson.D{{Key: "dropDatabase", Value: 1}})
	})
	if _, err := cl.Command(ctx, db, bson.D{{Key: "profile", Value: 2}, {Key: "slowms", Value: 0}}); err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		if _, err := cl.Command(ctx, db, bson.D{{Key: "insert", Value: "people"}, {Key: "documents", Value: bson.A{bson.D{{Key: "_id", Value: i}, {Key: "name", Value: fmt.Sprint("n", i)}}}}}); err != nil {
			t.Fatal(err)
		}
		if _, err := cl.Command(ctx, db, bson.D{{Key: "find", Value: "people"}, {Key: "filter", Value: bson.D{{Key: "_id", Value: i}}}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := cl.Command(ctx, db, bson.D{{Key: "profile", Value: 0}}); err != nil {
		t.Fatal(err)
	}
	source, err := cl.Deployment(ctx)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	old := func(name string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("old\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, 0o644); err != nil { // whatever the umask
			t.Fatal(err)
		}
		return p
	}
	capture := func(tracePath, out string) (int, string) {
		t.Helper()
		code, _, stderr := runCLI(t, ctx, nil, "capture", "--uri", uri, "--database", db, "--keep-values", "--trace", tracePath, "--out", out)
		return code, stderr
	}

	tr := old("pre.trace")
	if code, stderr := capture(tr, filepath.Join(dir, "w.yaml")); code != 0 {
		t.Fatalf("capture --trace over an existing file: exit %d\n%s", code, stderr)
	}
	fi, err := os.Stat(tr)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("the trace written over a 0644 file has mode %o, want 0600", fi.Mode().Perm())
	}
	f, err := os.Open(tr)
	if err != nil {
		t.Fatal(err)
	}
	r, err := trace.NewReader(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Header.CapturedFrom, source) {
		t.Errorf("the trace's header names the source %v, want %v", r.Header.CapturedFrom, source)
	}

	same := old("same.out")
	code, stderr := capture(same, same)
	if body, _ := os.ReadFile(same); code != 18 || !strings.Contains(stderr, "--trace") || !strings.Contains(stderr, "--out") || string(body) != "old\n" {
		t.Errorf("--trace X --out X: exit %d, the file now %q, want exit 18 naming both and the file untouched:\n%s", code, body, stderr)
	}
	for _, console := range []string{"-", "/dev/stdout", "/dev/stderr", "/proc/self/fd/2", "/dev/tty", "/dev/null"} {
		if _, err := os.Stat(console); err != nil && console != "-" {
			continue // not on this host
		}
		code, stderr := capture(console, filepath.Join(dir, "c.yaml"))
		if code != 2 || !strings.Contains(stderr, "--trace") || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("--trace %s: exit %d, want 2 in one line:\n%s", console, code, stderr)
		}
	}
}

// TestRunOutputsDistinct: a run whose results file is also its interval
// log is refused (exit 18) before it runs, the file untouched: one would
// overwrite the other (the class of capture's --trace X --out X).
func TestRunOutputsDistinct(t *testing.T) {
	p := filepath.Join(t.TempDir(), "same")
	if err := os.WriteFile(p, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI(t, context.Background(), nil, "run", "--target", "noop", "--duration", "1ms", "--warmup", "0s", "--quiet", "--out", p, "--hdr-log", p)
	if body, _ := os.ReadFile(p); code != 18 || !strings.Contains(stderr, "--hdr-log") || string(body) != "old\n" {
		t.Errorf("--out X --hdr-log X: exit %d, the file now %q, want 18 naming both and the file untouched:\n%s", code, body, stderr)
	}
}

// TestOutputsDistinctEverywhere: the commands with two outputs refuse one
// file for both (exit 18) before they touch a server, the file untouched:
// sweep's and findmax's file and --html, ab's --out and --html.
func TestOutputsDistinctEverywhere(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
	}{
		{"sweep", []string{"sweep", "--concurrency", "1,2", "--target", "noop", "--step-duration", "1ms", "--warmup", "0s"}},
		{"findmax", []string{"findmax", "--slo", "p99<=1s", "--target", "noop", "--step-duration", "1ms", "--warmup", "0s", "--start", "10"}},
		{"ab", []string{"ab", "--uri", "mongodb://127.0.0.1:1", "--candidate-uri", "mongodb://127.0.0.1:2"}},
	} {
		p := filepath.Join(t.TempDir(), "same")
		if err := os.WriteFile(p, []byte("old\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := runCLI(t, context.Background(), nil, append(c.args, "--out", p, "--html", p)...)
		if body, _ := os.ReadFile(p); code != 18 || !strings.Contains(stderr, "--html") || string(body) != "old\n" {
			t.Errorf("%s --out X --html X: exit %d, the file now %q, want 18 naming both and the file untouched:\n%s", c.name, code, body, stderr)
		}
	}
}
