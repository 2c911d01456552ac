package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/testserver"
	"github.com/mongoload/mongoload/internal/trace"
)

// TestReplayRefusesItsSourceEvenCut: a trace of the server's own
// deployment, with one update of the application's document, is refused
// (exit 19) and sends nothing, whole and cut short (6 bytes off: no
// trailer), because the header names the source; a trace written before the
// header did (the identity only in its trailer) is still refused whole,
// and, cut, says that nothing can refuse it.
func TestReplayRefusesItsSourceEvenCut(t *testing.T) {
	ctx := context.Background()
	uri := testserver.URI(t)
	cl := connectTest(t, ctx, uri)
	db := fmt.Sprintf("rpcut_%d", os.Getpid())
	t.Cleanup(func() { _, _ = cl.Command(context.Background(), db, bson.D{{Key: "dropDatabase", Value: 1}}) })
	if _, err := cl.Command(ctx, db, bson.D{{Key: "insert", Value: "people"}, {Key: "documents", Value: bson.A{bson.D{{Key: "_id", Value: 1}, {Key: "token", Value: "orig"}}}}}); err != nil {
		t.Fatal(err)
	}
	source, err := cl.Deployment(ctx)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, header, trailer []string) string {
		t.Helper()
		path := filepath.Join(dir, name)
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		w, err := trace.NewWriter(f, trace.Header{Created: time.Now(), Tool: "mongoload capture", Databases: []string{db}, CapturedFrom: header})
		if err != nil {
			t.Fatal(err)
		}
		upd, _ := bson.Marshal(bson.D{{Key: "update", Value: "people"}, {Key: "updates", Value: bson.A{bson.D{{Key: "q", Value: bson.D{{Key: "_id", Value: 1}}},
			{Key: "u", Value: bson.D{{Key: "$set", Value: bson.D{{Key: "token", Value: "REPLAYED"}}}}}}}}})
		if err := w.Add(trace.Entry{Start: time.Now(), Dur: time.Millisecond, NS: db + ".people", Op: "command", Cmd: upd, Conn: "conn1", Shape: "update people {_id}"}); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(trace.Trailer{CapturedFrom: trailer, Sources: []trace.Source{{Name: "profiler", Complete: true, Why: "level 2"}}}); err != nil {
			t.Fatal(err)
		}
		return path
	}
	cut := func(path string) string {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out := strings.TrimSuffix(path, ".trace") + "-cut.trace"
		if err := os.WriteFile(out, b[:len(b)-6], 0o600); err != nil {
			t.Fatal(err)
		}
		return out
	}
	token := func() string {
		t.Helper()
		var doc struct{ Token string }
		reply, err := cl.Command(ctx, db, bson.D{{Key: "find", Value: "people"}, {Key: "filter", Value: bson.D{{Key: "_id", Value: 1}}}})
		if err != nil {
			t.Fatal(err)
		}
		first, _ := reply.Lookup("cursor", "firstBatch", "0").DocumentOK()
		_ = bson.Unmarshal(first, &doc)
		return doc.Token
	}
	replay := func(path string) (int, string) {
		t.Helper()
		code, _, stderr := runCLI(t, ctx, nil, "replay", path, "--uri", uri, "--allow-existing", "--speed", "max", "--quiet")
		return code, stderr
	}
	both := write("both.trace", source, source)
	old := write("old.trace", nil, source)
	for _, c := range []struct {
		name, path string
		code       int
		says       string
	}{
		{"whole", both, 19, "captured from"},
		{"cut", cut(both), 19, "cut short"},
		{"earlier format, whole", old, 19, "captured from"},
	} {
		code, stderr := replay(c.path)
		if code != c.code || !strings.Contains(stderr, c.says) {
			t.Errorf("%s: exit %d, want %d saying %q:\n%s", c.name, code, c.code, c.says, stderr)
		}
		if got := token(); got != "orig" {
			t.Fatalf("%s: the source's document was written: token %q", c.name, got)
		}
	}
	// The earlier format cut short cannot be told from a file capture's:
	// replayed, and said.
	code, stderr := replay(cut(old))
	if code != 0 || !strings.Contains(stderr, "nothing can refuse to replay it") {
		t.Errorf("earlier format, cut: exit %d, want 0 saying nothing can refuse it:\n%s", code, stderr)
	}
}
