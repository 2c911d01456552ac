package cli

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/testserver"
)

// TestFaultLoadResumeAfterKill: the server is killed in the middle of a
// load and restarted on its data; `load --resume` then finishes it. The
// oracle is the server: as many documents as asked, their keys unique (the
// index) and contiguous from the first to the last: no gap, no duplicate.
func TestFaultLoadResumeAfterKill(t *testing.T) {
	testserver.Timing(t)
	srv := testserver.OwnServer(t)
	db := "ml_loadkill_" + strconv.FormatInt(time.Now().UnixNano()%1e6, 10)
	w := writeFile(t, "w.yaml", strings.ReplaceAll(keyed, "database: mltest", "database: "+db))
	const n = 60_000
	d := openDB(t, srv.URI)
	load := runInBackground(context.Background(), "load", w, "--uri", srv.URI, "--documents", strconv.Itoa(n),
		"--workers", "2", "--batch-size", "100", "--server-selection-timeout", "2s")
	// Strike when the load is provably under way: the server holds some of
	// its documents, not all (the whole load takes under a second).
	var seen int64
	testserver.Await(t, time.Minute, "the load's first documents on the server", func() bool {
		seen = d.count(db, "items")
		return seen >= 1000
	})
	srv.Kill()
	code, stdout, stderr := load.wait()
	t.Logf("load killed with %d documents seen: exit %d\n%s\n%s", seen, code, stdout, stderr)
	if seen >= n {
		t.Fatalf("the load had finished (%d documents) before the kill", seen)
	}
	if code == 0 {
		t.Fatal("the load finished although the server was killed")
	}
	if !strings.Contains(stderr, "--resume") {
		t.Errorf("the failed load does not say how to go on:\n%s", stderr)
	}
	srv.Start()
	code, stdout, stderr = runCLI(t, context.Background(), nil, "load", w, "--uri", srv.URI, "--resume")
	t.Logf("resume: exit %d\n%s\n%s", code, stdout, stderr)
	if code != 0 {
		t.Fatalf("resume: exit %d", code)
	}
	raw := d.cmd(db, bson.D{{Key: "aggregate", Value: "items"}, {Key: "cursor", Value: bson.D{}},
		{Key: "pipeline", Value: bson.A{bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: nil},
			{Key: "n", Value: bson.D{{Key: "$sum", Value: 1}}}, {Key: "min", Value: bson.D{{Key: "$min", Value: "$k"}}}, {Key: "max", Value: bson.D{{Key: "$max", Value: "$k"}}}}}}}}})
	var out struct {
		Cursor struct {
			FirstBatch []struct{ N, Min, Max int64 } `bson:"firstBatch"`
		} `bson:"cursor"`
	}
	if err := bson.Unmarshal(raw, &out); err != nil || len(out.Cursor.FirstBatch) != 1 {
		t.Fatalf("%v: %s", err, raw)
	}
	g := out.Cursor.FirstBatch[0]
	t.Logf("server: %d documents, keys %d..%d", g.N, g.Min, g.Max)
	if g.N != n || g.Max-g.Min != n-1 {
		t.Errorf("%d documents with keys %d..%d; want %d contiguous keys (no gap, no duplicate)", g.N, g.Min, g.Max, n)
	}
}

// TestFaultSeedingServerKilled is issue 25 #10: the server killed during a
// run's seeding ended with two raw driver lines and no way on, where
// Ctrl-C gives the resume hint. Now: exit 22 and one line saying the
// server went away, how far the seeding got and the commands that go on.
// The strike comes on an event: the server holds some of the seed.
func TestFaultSeedingServerKilled(t *testing.T) {
	testserver.Timing(t)
	srv := testserver.OwnServer(t)
	db := "ml_seedkill_" + strconv.FormatInt(time.Now().UnixNano()%1e6, 10)
	w := writeFile(t, "w.yaml", strings.ReplaceAll(keyed, "database: mltest", "database: "+db))
	d := openDB(t, srv.URI)
	seed := runInBackground(context.Background(), "run", w, "--uri", srv.URI, "--seed", "500000", "--seed-workers", "1",
		"--seed-batch-size", "100", "--duration", "1s", "--server-selection-timeout", "2s")
	testserver.Await(t, time.Minute, "the seed's first documents on the server", func() bool { return d.count(db, "items") >= 1000 })
	srv.Kill()
	exit, _, stderr := seed.wait()
	code := strconv.Itoa(exit)
	var said []string
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if !strings.HasPrefix(l, "seed "+db) && !strings.HasPrefix(l, "notice:") {
			said = append(said, l)
		}
	}
	if code != strconv.Itoa(ExitServerFailure) || len(said) != 1 {
		t.Fatalf("exit %s, want %d and one line besides the progress:\n%s", code, ExitServerFailure, stderr)
	}
	for _, want := range []string{"seeding " + db + ".items stopped: the server went away", "once it is back, run the same command again", "`mongoload load " + w + " --collection " + db + ".items --resume`"} {
		if !strings.Contains(said[0], want) {
			t.Errorf("the line lacks %q: %s", want, said[0])
		}
	}
}
