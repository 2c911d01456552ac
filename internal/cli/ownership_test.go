package cli

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/testserver"
)

// db is a test's view of the server, for oracles: counts and collection
// names read with plain commands, not through the code under test.
type db struct {
	t  *testing.T
	cl *mongodb.Client
}

func openDB(t *testing.T, uri string) db {
	t.Helper()
	cl, err := mongodb.Connect(context.Background(), config.Connection{URI: uri, Timeouts: config.Timeouts{ServerSelection: config.Duration(5 * time.Second)}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return db{t, cl}
}

func (d db) cmd(database string, cmd bson.D) bson.Raw {
	d.t.Helper()
	raw, err := d.cl.Command(context.Background(), database, cmd)
	if err != nil {
		d.t.Fatal(err)
	}
	return raw
}

func (d db) count(database, coll string) int64 {
	d.t.Helper()
	v := d.cmd(database, bson.D{{Key: "count", Value: coll}}).Lookup("n")
	if n, ok := v.AsInt64OK(); ok {
		return n
	}
	d.t.Fatalf("count %s.%s: %v", database, coll, v)
	return 0
}

// countAfterFault is count for a poll that runs across a server's pause:
// the server drops connections held while it was stopped, so a failed
// count is "not yet", not the test's failure.
func (d db) countAfterFault(database, coll string) int64 {
	raw, err := d.cl.Command(context.Background(), database, bson.D{{Key: "count", Value: coll}})
	if err != nil {
		return -1
	}
	n, _ := raw.Lookup("n").AsInt64OK()
	return n
}

func (d db) collections(database string) []string {
	d.t.Helper()
	raw := d.cmd(database, bson.D{{Key: "listCollections", Value: 1}, {Key: "nameOnly", Value: true}})
	docs, _ := raw.Lookup("cursor", "firstBatch").Array().Values()
	var names []string
	for _, v := range docs {
		names = append(names, v.Document().Lookup("name").StringValue())
	}
	return names
}

func uniqueName(t *testing.T) string {
	return fmt.Sprintf("ml_%s_%d", strings.ToLower(strings.ReplaceAll(t.Name(), "/", "_")), time.Now().UnixNano()%1e6)
}

// TestSeedingNeverWritesForeign is the acceptance case of issue 11: a
// read-only workload on an existing collection mongoload did not create,
// with --seed 50 (or mongoload load), used to insert documents into it and
// create mongoload_meta beside it, exit 0. Now both refuse at setup (exit
// 19, one line naming the fix) and the collection keeps its one document;
// --allow-existing lets them.
func TestSeedingNeverWritesForeign(t *testing.T) {
	uri := testserver.URI(t)
	d := openDB(t, uri)
	name := uniqueName(t)
	d.cmd(name, bson.D{{Key: "insert", Value: "c"}, {Key: "documents", Value: bson.A{bson.D{{Key: "k", Value: 1}}}}})
	w := writeFile(t, "ro.yaml", fmt.Sprintf(`
collections:
  - database: %s
    name: c
    template: {k: {$gen: int, min: 1, max: 9}}
operations:
  - {name: look, type: findOne, collection: c, weight: 1, filter: {k: 3}}
`, name))
	for _, args := range [][]string{
		{"run", w, "--seed", "50", "--duration", "1s"},
		{"load", w, "--documents", "50"},
		{"load", w, "--size", "1MB"},
	} {
		code, _, stderr := runCLI(t, context.Background(), nil, append(args, "--uri", uri)...)
		if code != ExitSetup || !strings.Contains(stderr, "--allow-existing") || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%s: exit %d, stderr %q; want %d and one line naming --allow-existing", args[0], code, stderr, ExitSetup)
		}
		if n := d.count(name, "c"); n != 1 {
			t.Fatalf("%v wrote into a collection mongoload did not create: 1 -> %d documents", args, n)
		}
		for _, c := range d.collections(name) {
			if c == mongodb.MetaCollection {
				t.Fatalf("%v created %s beside a foreign collection", args, c)
			}
		}
	}
	// Reading it needs no flag, and still leaves nothing behind.
	if code, _, stderr := runCLI(t, context.Background(), nil, "run", w, "--uri", uri, "--operations", "20", "--duration", "0", "--quiet"); code != 0 {
		t.Fatalf("read-only run: exit %d: %s", code, stderr)
	}
	if cs := d.collections(name); len(cs) != 1 {
		t.Errorf("a read-only run left %v", cs)
	}
	// The user says so: seeding tops it up to 50.
	if code, _, stderr := runCLI(t, context.Background(), nil, "run", w, "--uri", uri, "--seed", "50", "--allow-existing", "--operations", "20", "--duration", "0", "--quiet"); code != 0 {
		t.Fatalf("--allow-existing: exit %d: %s", code, stderr)
	}
	if n := d.count(name, "c"); n != 50 {
		t.Errorf("--seed 50 --allow-existing: %d documents, want 50", n)
	}
}

// TestSeedFlagOverridesFile: --seed N wins over the collections' own seed
// counts in the file (flags > environment > file > defaults); NAME=N sets
// only the named ones. The oracle is the server's count of each collection.
func TestSeedFlagOverridesFile(t *testing.T) {
	uri := testserver.URI(t)
	d := openDB(t, uri)
	name := uniqueName(t)
	w := writeFile(t, "w.yaml", fmt.Sprintf(`
collections:
  - {database: %[1]s, name: a, seed: 300, template: {k: {$gen: key}}}
  - {database: %[1]s, name: b, seed: 200, template: {k: {$gen: key}}}
operations:
  - {name: look, type: findOne, collection: a, weight: 1, filter: {k: {$gen: key}}}
`, name))
	tests := []struct {
		args []string
		a, b int64
	}{
		{[]string{"--seed", "20"}, 20, 20},                      // the file said 300 and 200
		{[]string{"--seed", "b=7"}, 300, 7},                     // only b
		{[]string{"--seed", "10", "--seed-scale", "0.5"}, 5, 5}, // the scale multiplies the flag's count
	}
	for _, tt := range tests {
		args := append([]string{"run", w, "--uri", uri, "--drop", "--operations", "10", "--duration", "0", "--quiet"}, tt.args...)
		if code, _, stderr := runCLI(t, context.Background(), nil, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", tt.args, code, stderr)
		}
		if a, b := d.count(name, "a"), d.count(name, "b"); a != tt.a || b != tt.b {
			t.Errorf("%v: a holds %d, b %d; want %d and %d", tt.args, a, b, tt.a, tt.b)
		}
	}
}

var backticked = regexp.MustCompile("`(mongoload [^`]+)`")

// TestSeedHintsWork: the commands mongoload names after an interrupted
// seed, and after a run whose --seed conflicts with the unfinished one,
// are run as printed (with the connection flag) and finish the seeding:
// the collection then holds the interrupted target. Before, the hint told
// run to use --documents ... --resume, which run rejects.
func TestSeedHintsWork(t *testing.T) {
	uri := testserver.URI(t)
	d := openDB(t, uri)
	name := uniqueName(t)
	w := writeFile(t, "w.yaml", fmt.Sprintf(`
collections:
  - {database: %s, name: c, template: {k: {$gen: key}, pad: {$gen: string, min: 200, max: 200}}}
operations:
  - {name: look, type: findOne, weight: 1, filter: {k: {$gen: key}}}
`, name))
	const target = 100_000 // seconds of seeding with one worker in small batches
	ctx, cancel := context.WithCancel(context.Background())
	seed := runInBackground(ctx, "run", w, "--uri", uri, "--seed", strconv.Itoa(target), "--seed-workers", "1", "--seed-batch-size", "100", "--duration", "1s")
	testserver.Await(t, time.Minute, "the seed's first documents on the server", func() bool { return d.count(name, "c") >= 1000 })
	cancel() // Ctrl-C with the seeding provably under way
	code, _, stderr := seed.wait()
	m := backticked.FindStringSubmatch(stderr)
	if code != ExitInterrupted || m == nil {
		t.Fatalf("interrupted seed: exit %d, no command in %q", code, stderr)
	}
	// Another --seed conflicts with the unfinished one: its hint must work too.
	code, _, stderr = runCLI(t, context.Background(), nil, "run", w, "--uri", uri, "--seed", "10", "--duration", "1s")
	m2 := backticked.FindStringSubmatch(stderr)
	if code != ExitSetup || m2 == nil || strings.Contains(stderr, "--documents") {
		t.Fatalf("conflicting seed: exit %d, stderr %q", code, stderr)
	}
	if m2[1] != m[1] {
		t.Logf("two hints: %q and %q", m[1], m2[1])
	}
	args := append(strings.Fields(m2[1])[1:], "--uri", uri)
	if code, stdout, stderr := runCLI(t, context.Background(), nil, args...); code != 0 {
		t.Fatalf("the hint %q: exit %d\n%s\n%s", m2[1], code, stdout, stderr)
	}
	if n := d.count(name, "c"); n != target {
		t.Errorf("after the hint: %d documents, want %d", n, target)
	}
}

// TestPipelineOutputsAreWrites is the acceptance case of issue 25 #1: an
// aggregate ending in $out or $merge into a collection mongoload did not
// create replaced or grew it, exit 0. Now validate names the target and a
// run refuses before it starts (exit 19, one line): the collection keeps
// its document, and the workload's own collection is not even created.
func TestPipelineOutputsAreWrites(t *testing.T) {
	uri := testserver.URI(t)
	d := openDB(t, uri)
	name, other := uniqueName(t), uniqueName(t)+"x"
	for _, db := range []string{name, other} {
		d.cmd(db, bson.D{{Key: "insert", Value: "foreign"}, {Key: "documents", Value: bson.A{bson.D{{Key: "k", Value: 1}}}}})
	}
	for _, stage := range []string{`{$out: foreign}`, `{$merge: {into: foreign}}`, fmt.Sprintf(`{$out: {db: %s, coll: foreign}}`, other), fmt.Sprintf(`{$merge: {into: {db: %s, coll: foreign}}}`, other)} {
		w := writeFile(t, "agg.yaml", fmt.Sprintf(`
collections:
  - {database: %s, name: c, seed: 20, template: {k: {$gen: key}, v: {$gen: int, min: 0, max: 9}}}
operations:
  - {name: copy, type: aggregate, weight: 1, pipeline: [{$match: {v: {$lt: 5}}}, %s]}
`, name, stage))
		code, stdout, _ := runCLI(t, context.Background(), nil, "validate", w)
		if code != 0 || !strings.Contains(stdout, `operation "copy" writes into`) || !strings.Contains(stdout, ".foreign through $") {
			t.Errorf("%s: validate (exit %d) does not name the target: %q", stage, code, stdout)
		}
		code, _, stderr := runCLI(t, context.Background(), nil, "run", w, "--uri", uri, "--operations", "20", "--duration", "0", "--quiet")
		if code != ExitSetup || !strings.Contains(stderr, "--allow-existing") || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%s: exit %d, stderr %q; want %d and one line naming --allow-existing", stage, code, stderr, ExitSetup)
		}
		for _, db := range []string{name, other} {
			if n := d.count(db, "foreign"); n != 1 {
				t.Fatalf("%s: %s.foreign went from 1 to %d documents", stage, db, n)
			}
			if cs := d.collections(db); len(cs) != 1 {
				t.Errorf("%s: the refused run changed %s: %v", stage, db, cs)
			}
		}
	}
}
