package cli

import (
	"context"
	"net/url"
	"path/filepath"
	"testing"

	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/testserver"
)

// TestRetriedReadsAndWritesCountedApart: the connection carrying a read's or
// a write's first attempt is cut, the driver retries it on a new one and it
// succeeds. Such operations are not lost: the results count them as retried,
// reads and writes apart, in each operation's outcomes and in the faults
// section. The oracle is the proxies' own count of the commands they cut:
// the first, third and fifth find (and update) of the collection, each the
// first attempt of an operation whose retry (the second, fourth, sixth)
// goes through. (Before, nothing counted them: they were plain successes.)
func TestRetriedReadsAndWritesCountedApart(t *testing.T) {
	uri := testserver.URI(t)
	u, err := url.Parse(uri)
	if err != nil {
		t.Fatal(err)
	}
	// BSON of the commands' first element: {find: "rt"} and {update: "rt"}.
	firstAttempts := func(n int64) bool { return n <= 5 && n%2 == 1 }
	updates := newCmdCutter(t, u.Host, []byte("\x02update\x00\x03\x00\x00\x00rt\x00"), firstAttempts)
	finds := newCmdCutter(t, updates.ln.Addr().String(), []byte("\x02find\x00\x03\x00\x00\x00rt\x00"), firstAttempts)
	w := uniqueDB(t, `
collections:
  - {database: mltest, name: rt, seed: 20, template: {k: {$gen: key}, n: 0}}
operations:
  - {name: look, type: findOne, weight: 1, filter: {k: {$gen: key}}}
  - {name: bump, type: updateOne, weight: 1, filter: {k: {$gen: key}}, update: {$inc: {n: 1}}}
`)
	out := filepath.Join(t.TempDir(), "r.json")
	code, stdout, stderr := runCLI(t, context.Background(), nil, "run", w, "--uri", finds.proxied(t, uri), "--concurrency", "1",
		"--operations", "60", "--duration", "0", "--warmup", "0s", "--quiet", "--drop", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	res, err := results.ReadJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	look, bump := opNamed(res, "look"), opNamed(res, "bump")
	t.Logf("finds cut %d of %d, updates cut %d of %d; look %+v, bump %+v, faults %+v",
		finds.cuts.Load(), finds.seen.Load(), updates.cuts.Load(), updates.seen.Load(), look.Outcomes, bump.Outcomes, res.Faults)
	if res.Totals.Errors != 0 || look.Count+bump.Count != 60 {
		t.Fatalf("%d errors, %d operations: every cut attempt should have been retried successfully", res.Totals.Errors, look.Count+bump.Count)
	}
	if finds.cuts.Load() != 3 || updates.cuts.Load() != 3 {
		t.Fatalf("the proxies cut %d finds and %d updates, want 3 each (the mix drew too few?)", finds.cuts.Load(), updates.cuts.Load())
	}
	if got := look.Outcomes[metrics.RetriedRead]; got != finds.cuts.Load() {
		t.Errorf("look: %d retried reads counted, the proxy cut %d first attempts", got, finds.cuts.Load())
	}
	if got := bump.Outcomes[metrics.RetriedWrite]; got != updates.cuts.Load() {
		t.Errorf("bump: %d retried writes counted, the proxy cut %d first attempts", got, updates.cuts.Load())
	}
	if f := res.Faults; f == nil || f.Retried == nil || f.Retried.Reads != 3 || f.Retried.Writes != 3 || f.Lost != 0 {
		t.Errorf("faults section %+v: want 3 reads and 3 writes retried, nothing lost", f)
	}
}
