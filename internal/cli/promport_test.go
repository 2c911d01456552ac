package cli

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/testserver"
)

// TestPrometheusPortHeldFromTheStart is issue 30's port race: --prometheus
// was checked before setup, let go, and bound again when measuring began,
// so a port taken in between (during seeding) ended the run with exit 18
// after --drop and the seeding, and no results file. Now the port is
// bound before the server is touched and held: a listener the test opens
// while the run seeds is refused, and the run ends with exit 0, its
// results file, and /metrics served on that port while it measured.
func TestPrometheusPortHeldFromTheStart(t *testing.T) {
	uri := testserver.URI(t)
	free, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := free.Addr().String()
	_ = free.Close()
	db := uniqueName(t)
	w := writeFile(t, "w.yaml", strings.Replace(minimal, "database: mltest", "database: "+db, 1))
	out := filepath.Join(t.TempDir(), "r.json")
	d := openDB(t, uri)
	t.Cleanup(func() { _, _ = d.cl.Command(context.Background(), db, bson.D{{Key: "dropDatabase", Value: 1}}) })
	b := runInBackground(context.Background(), "run", w, "--uri", uri, "--seed", "60000", "--drop", "--duration", "2s",
		"--warmup", "0s", "--quiet", "--prometheus", addr, "--out", out)
	testserver.Await(t, 60*time.Second, "the run seeding", func() bool { return strings.Contains(b.stderr.String(), "seed "+db) })
	if ln, err := net.Listen("tcp", addr); err == nil {
		_ = ln.Close()
		t.Errorf("the test could bind %s while the run seeded: the run does not hold its port", addr)
	}
	testserver.Await(t, 60*time.Second, "the measured run", func() bool { return strings.Contains(b.stderr.String(), "running ") })
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatalf("scrape while the run measured: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "mongoload_") {
		t.Errorf("scrape: %d, %.200s", resp.StatusCode, body)
	}
	code, _, stderr := b.wait()
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(out); err != nil {
		t.Fatalf("no results file: %v", err)
	}
	// The port is let go at the end.
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("the port is still held after the run: %v", err)
	}
	_ = ln.Close()
}
