package cli

import (
	"context"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/capture"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/testserver"
)

// TestCaptureDoesNotFloodTheProfiler: a 3 s window on a profiler at
// level 2, which records capture's own getMores too, while an application
// runs: capture reads in batches, about one getMore a second, so its own
// entries in system.profile are a handful (it was hundreds, each waking
// the next read, evicting the application's), and the summary says how
// many it saw. The oracle is system.profile itself, read after.
func TestCaptureDoesNotFloodTheProfiler(t *testing.T) {
	uri := testserver.URI(t)
	ctx := context.Background()
	cl := connectTest(t, ctx, uri)
	db := profiledDatabase(t, cl, "capflood")
	if _, err := cl.Command(ctx, db, bson.D{{Key: "insert", Value: "people"}, {Key: "documents", Value: bson.A{bson.D{{Key: "n", Value: 1}}}}}); err != nil {
		t.Fatal(err)
	}
	if err := cl.SetProfiler(ctx, db, mongodb.ProfilerState{Level: 2, SlowMS: 100, SampleRate: 1}); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	app := make(chan int)
	go func() { // the application, until the capture ends
		n := 0
		for {
			select {
			case <-done:
				app <- n
				return
			default:
			}
			if _, err := cl.Command(ctx, db, bson.D{{Key: "find", Value: "people"}, {Key: "filter", Value: bson.D{{Key: "n", Value: n}}}}); err == nil {
				n++
			}
		}
	}()
	code, stdout, errs := runCLI(t, ctx, nil, "capture", "--uri", uri, "--database", db, "--duration", "3s", "--out", filepath.Join(t.TempDir(), "w.yaml"))
	close(done)
	<-app
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, stdout, errs)
	}
	var own int64
	err := cl.AggregateEach(ctx, db, "system.profile", bson.A{bson.D{{Key: "$match", Value: bson.D{{Key: "appName", Value: capture.AppName}}}}, bson.D{{Key: "$count", Value: "n"}}},
		func(d bson.Raw) error { own = int64(mongodb.Number(d.Lookup("n"))); return nil })
	if err != nil {
		t.Fatal(err)
	}
	// About one read a second, and the first, the last and the sampling's
	// few commands: a dozen at most.
	if own > 12 {
		t.Errorf("capture left %d entries of its own in system.profile over a 3 s window", own)
	}
	m := regexp.MustCompile(`(\d+) entries of capture's own reads`).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("the summary does not say how many entries were capture's own:\n%s", stdout)
	}
	if n, _ := strconv.Atoi(m[1]); n < 1 || int64(n) > own {
		t.Errorf("the summary counts %d of capture's own entries; system.profile holds %d", n, own)
	}
	if !strings.Contains(stdout, "operations over the") {
		t.Errorf("no rate over the window:\n%s", stdout)
	}
}
