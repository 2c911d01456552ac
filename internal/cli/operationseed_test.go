package cli

import (
	"context"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/testserver"
)

// overwrite updates one random field of a seeded document with fresh bytes,
// as YCSB's update does.
const overwrite = `
collections:
  - database: mltest
    name: items
    template:
      k: {$gen: key}
      v: {$gen: binary, length: 16}
operations:
  - name: set
    type: updateOne
    weight: 1
    filter: {k: {$gen: key}}
    update: {$set: {v: {$gen: binary, length: 16}}}
`

// TestOperationSeedReplaysOnlyWhenAsked: the server's own count of the
// documents an update changed (nModified) is the oracle. A run that replays
// the last run's operations on the same data writes the values already
// there, and the server changes (almost) nothing; so a run replays only
// when its operation seed is given, and each run, and each repeat of a
// battery, otherwise draws operations of its own.
func TestOperationSeedReplaysOnlyWhenAsked(t *testing.T) {
	uri := testserver.URI(t)
	p := uniqueDB(t, overwrite)
	dir := t.TempDir()
	// One worker and a fixed count make a run's operations a function of
	// its seed. 300 updates over 5,000 documents: about 9 pairs meet on a
	// document, and a replay changes both of a pair (about 6%); a fresh
	// run changes all 300.
	changed := func(name string, args ...string) (share float64, seed string) {
		t.Helper()
		out := filepath.Join(dir, name+".json")
		args = append([]string{"run", p, "--uri", uri, "--seed", "5000", "--operations", "300", "--duration", "0",
			"--concurrency", "1", "--quiet", "--out", out}, args...)
		code, stdout, stderr := runCLI(t, context.Background(), nil, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s\n%s", name, code, stdout, stderr)
		}
		return modifiedShare(t, out), operationSeedOf(t, stdout)
	}
	cases := []struct {
		name     string
		args     []string
		replayed bool // the run repeats the one before it
	}{
		{"first", []string{"--operation-seed", "7"}, false},
		{"same seed", []string{"--operation-seed", "7"}, true},
		{"no seed", nil, false},
		{"no seed again", nil, false},
	}
	seeds := map[string]bool{}
	for _, c := range cases {
		share, seed := changed(c.name, c.args...)
		if c.replayed && share > 0.2 || !c.replayed && share < 0.95 {
			t.Errorf("%s: the server changed %.0f%% of the documents it matched (replay: %v)", c.name, 100*share, c.replayed)
		}
		seeds[seed] = true
	}
	if len(seeds) != 3 {
		t.Errorf("operation seeds printed %v: want 7 and two fresh ones", seeds)
	}
	// The seed the report printed replays the run it names.
	_, seed := changed("printed")
	if share, _ := changed("replay of printed", "--operation-seed", seed); share > 0.2 {
		t.Errorf("replaying operationSeed=%s changed %.0f%% of the documents", seed, 100*share)
	}

	// A battery's repeats, even under a given seed, are new operations.
	out := filepath.Join(dir, "battery.json")
	code, stdout, stderr := runCLI(t, context.Background(), nil, "run", p, "--uri", uri, "--seed", "5000", "--operations", "300",
		"--duration", "0", "--concurrency", "1", "--quiet", "--operation-seed", "11", "--repeat", "2", "--out", out)
	if code != 0 {
		t.Fatalf("battery: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if share := modifiedShare(t, filepath.Join(dir, "battery-run2.json")); share < 0.95 {
		t.Errorf("a battery's second run changed %.0f%% of the documents: it replayed the first", 100*share)
	}
}

func modifiedShare(t *testing.T, path string) float64 {
	t.Helper()
	res, err := results.ReadJSON(path)
	if err != nil {
		t.Fatal(err)
	}
	d := res.Totals.Docs
	if d == nil || d.Matched != 300 {
		t.Fatalf("%s: documents matched %+v, want 300", path, d)
	}
	return float64(d.Modified) / float64(d.Matched)
}

var operationSeedRE = regexp.MustCompile(`operationSeed=(\d+)`)

func operationSeedOf(t *testing.T, report string) string {
	t.Helper()
	m := operationSeedRE.FindStringSubmatch(report)
	if m == nil {
		t.Fatalf("the report names no operationSeed:\n%s", report)
	}
	return m[1]
}
