package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/testserver"
)

// ab2_test.go: ab as a DBA uses it first, on copies of production
// (issue 38), and ab under faults (issue 41): two real servers each.

// rewrite writes a copy of the workload at path with old replaced by new.
func rewrite(t *testing.T, path, old, new string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(b), old) {
		t.Fatalf("%s: %v, or no %q in it", path, err, old)
	}
	out := filepath.Join(t.TempDir(), filepath.Base(path))
	if err := os.WriteFile(out, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// declareOrgIndex is the A/B workload declaring {org: 1}, as a captured
// workload declares its source's indexes.
func declareOrgIndex(t *testing.T, w string) string {
	return rewrite(t, w, "      note: {$gen: string, length: 100}\n", "      note: {$gen: string, length: 100}\n    indexes:\n      - keys: {org: 1}\n")
}

// indexKeys are the key patterns of a collection's indexes.
func indexKeys(t *testing.T, c *mongodb.Client, db, coll string) []string {
	t.Helper()
	ixs, err := c.ListIndexes(context.Background(), db, coll)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, ix := range ixs {
		keys = append(keys, ix.Keys)
	}
	return keys
}

func hasKeys(keys []string, want string) bool {
	for _, k := range keys {
		if k == want {
			return true
		}
	}
	return false
}

// loadBoth loads w into both sides alike (one inserter).
func (s *abSides) loadBoth(t *testing.T, w string) {
	t.Helper()
	for _, uri := range []string{s.uriA, s.uriB} {
		code, _, errs := runCLI(t, s.ctx, nil, "load", w, "--uri", uri, "--documents", fmt.Sprint(s.docs), "--random-seed", "7", "--drop", "--workers", "1")
		if code != 0 {
			t.Fatalf("load exit %d: %s", code, errs)
		}
	}
}

// TestABLeavesTheCandidatesIndexes: {org: 1}, declared by the workload,
// dropped on the candidate (an existing copy: --allow-existing, no seeding)
// stays dropped after ab, which names the index B lacks first, in its
// output and its file; setup's notice says what the missing index means.
// --create-indexes, asked in words, builds it.
func TestABLeavesTheCandidatesIndexes(t *testing.T) {
	s := newABSides(t, 2000)
	w := declareOrgIndex(t, s.workload)
	s.loadBoth(t, w)
	if !hasKeys(indexKeys(t, s.b, s.db, "items"), "{org: 1}") {
		t.Fatalf("premise: the load built no {org: 1} on B: %v", indexKeys(t, s.b, s.db, "items"))
	}
	s.command(t, s.b, bson.D{{Key: "dropIndexes", Value: "items"}, {Key: "index", Value: bson.D{{Key: "org", Value: 1}}}})
	out := filepath.Join(t.TempDir(), "ab.json")
	args := []string{"ab", w, "--uri", s.uriA, "--candidate-uri", s.uriB, "--allow-existing", "--operation-seed", "11",
		"--rounds", "2", "--verify", "20", "--out", out}
	code, stdout, errs := runCLI(t, s.ctx, nil, args...)
	ab, err := readABFile(out)
	if err != nil {
		t.Fatalf("exit %d, no file: %v\n%s%s", code, err, stdout, errs)
	}
	if keys := indexKeys(t, s.b, s.db, "items"); hasKeys(keys, "{org: 1}") {
		t.Errorf("ab built {org: 1} on the candidate, a collection that existed before it: %v", keys)
	}
	if !hasKeys(indexKeys(t, s.a, s.db, "items"), "{org: 1}") {
		t.Errorf("the baseline lost its {org: 1}")
	}
	if len(ab.Data) != 1 || len(ab.Data[0].IndexDiffs) != 1 || !strings.HasPrefix(ab.Data[0].IndexDiffs[0], "B lacks the index {org: 1} (org_1") {
		t.Errorf("the file's index differences: %+v", ab.Data)
	}
	table := strings.Index(stdout, "\n  operation ")
	named := strings.Index(stdout, "indexes of "+s.db+".items: B lacks the index {org: 1}")
	if named < 0 || table < 0 || named > table {
		t.Errorf("the report does not name the index B lacks before the operations:\n%s", stdout)
	}
	if !strings.Contains(errs, "side B: notice: "+s.db+".items existed before this run, and its indexes are left as they are: it lacks the workload's index {org: 1}") {
		t.Errorf("setup said nothing of the index B lacks:\n%s", errs)
	}
	if o := opOf(t, ab, "by_org"); !strings.HasPrefix(o.PlanA, "IXSCAN") || o.PlanB != "COLLSCAN" {
		t.Errorf("by_org: plan %q -> %q, want IXSCAN -> COLLSCAN", o.PlanA, o.PlanB)
	}
	s.loadBoth(t, w) // the rounds wrote to both: copies again, {org: 1} dropped on B again
	s.command(t, s.b, bson.D{{Key: "dropIndexes", Value: "items"}, {Key: "index", Value: bson.D{{Key: "org", Value: 1}}}})
	code, stdout, errs = runCLI(t, s.ctx, nil, append(args, "--create-indexes")...)
	if ab, err = readABFile(out); err != nil || !hasKeys(indexKeys(t, s.b, s.db, "items"), "{org: 1}") || len(ab.Data[0].IndexDiffs) != 0 {
		t.Errorf("--create-indexes: exit %d, B's indexes %v, differences %v (%v)\n%s%s", code, indexKeys(t, s.b, s.db, "items"), ab, err, stdout, errs)
	}
}

// TestRunLeavesForeignIndexes: run --allow-existing on a collection
// mongoload did not create writes there, but builds none of the
// workload's indexes (a unique one included) and says so; with
// --create-indexes it builds them.
func TestRunLeavesForeignIndexes(t *testing.T) {
	ctx := context.Background()
	uri := testserver.URI(t)
	c := connectTest(t, ctx, uri)
	db := fmt.Sprintf("ab_%d_foreignix", os.Getpid())
	t.Cleanup(func() { _, _ = c.Command(context.Background(), db, bson.D{{Key: "dropDatabase", Value: 1}}) })
	docs := bson.A{}
	for i := range 100 {
		docs = append(docs, bson.D{{Key: "_id", Value: i}, {Key: "org", Value: fmt.Sprintf("o%02d", i%50)}, {Key: "qty", Value: i}})
	}
	if _, err := c.Command(ctx, db, bson.D{{Key: "insert", Value: "items"}, {Key: "documents", Value: docs}}); err != nil {
		t.Fatal(err)
	}
	w := rewrite(t, declareOrgIndex(t, abWorkload(t, db)), "      - keys: {org: 1}\n", "      - keys: {org: 1}\n      - keys: {_id: 1, org: 1}\n        unique: true\n")
	code, out, errs := runCLI(t, ctx, nil, "run", w, "--uri", uri, "--allow-existing", "--duration", "300ms", "--quiet")
	if code != 0 {
		t.Fatalf("run --allow-existing: exit %d: %s%s", code, out, errs)
	}
	if keys := indexKeys(t, c, db, "items"); len(keys) != 1 {
		t.Errorf("run --allow-existing built indexes on a collection it did not create: %v", keys)
	}
	if !strings.Contains(out+errs, "lacks the workload's index {org: 1} (org_1), {_id: 1, org: 1} (_id_1_org_1)") || !strings.Contains(out+errs, "--create-indexes") {
		t.Errorf("no notice of the missing indexes:\n%s%s", out, errs)
	}
	if code, out, errs := runCLI(t, ctx, nil, "run", w, "--uri", uri, "--allow-existing", "--create-indexes", "--duration", "300ms", "--quiet"); code != 0 {
		t.Fatalf("run --create-indexes: exit %d: %s%s", code, out, errs)
	}
	if keys := indexKeys(t, c, db, "items"); !hasKeys(keys, "{org: 1}") || !hasKeys(keys, "{_id: 1, org: 1}") {
		t.Errorf("--create-indexes built %v", keys)
	}
}

// TestABVerifiedWritesIdentical: an A/A comparison of two identical
// copies, with a workload whose inserts draw their _id ({$gen: objectId},
// as a captured one does) and a read of the newest documents: each
// verified insert sends one document to both sides, so no verified result
// differs.
func TestABVerifiedWritesIdentical(t *testing.T) {
	s := newABSides(t, 1000)
	s.loadBoth(t, s.workload)
	w := rewrite(t, s.workload, "_id: {$gen: key}", "_id: {$gen: objectId}")
	w = rewrite(t, w, "operations:\n", "operations:\n  - {name: add, type: insertOne, weight: 30}\n  - {name: newest, type: find, weight: 30, filter: {}, sort: {_id: -1}, limit: 5}\n")
	code, ab, text := s.abWith(t, w, "--allow-existing", "--rounds", "2", "--verify", "30")
	if ab.Verdict == results.ABDiffers || code == ExitResultsDiffer {
		t.Errorf("A/A of identical copies: exit %d, verdict %s:\n%s", code, ab.Verdict, text)
	}
	for _, name := range []string{"add", "newest"} {
		if o := opOf(t, ab, name); o.Verified == 0 || o.ResultDiffs != 0 {
			t.Errorf("%s: %d of %d verified results differ: %+v", name, o.ResultDiffs, o.Verified, o.Diffs)
		}
	}
}

// abWith runs ab with the workload w and no seeding, and reads its file.
func (s *abSides) abWith(t *testing.T, w string, extra ...string) (int, *results.AB, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "ab.json")
	args := append([]string{"ab", w, "--uri", s.uriA, "--candidate-uri", s.uriB, "--operation-seed", "11", "--out", out}, extra...)
	code, stdout, errs := runCLI(t, s.ctx, nil, args...)
	ab, err := readABFile(out)
	if err != nil {
		t.Fatalf("ab exit %d wrote no file (%v): %s%s", code, err, stdout, errs)
	}
	return code, ab, stdout + errs
}

// TestABCandidateKilledWhileVerifying: a candidate that stops answering
// while results are verified is a lost side, found in seconds as in the
// rounds: exit 21, the file written, b.failed saying when.
func TestABCandidateKilledWhileVerifying(t *testing.T) {
	s := newABSides(t, 500)
	out := filepath.Join(t.TempDir(), "ab.json")
	bg := runInBackground(s.ctx, "ab", s.workload, "--uri", s.uriA, "--candidate-uri", s.uriB, "--seed", "500", "--drop",
		"--verify", "100000", "--rounds", "2", "--out", out)
	testserver.Await(t, 60*time.Second, "verification", func() bool { return strings.Contains(bg.stderr.String(), "verifying results") })
	if err := syscall.Kill(s.pidB, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	var code int
	select {
	case code = <-bg.done:
	case <-time.After(90 * time.Second):
		t.Fatalf("ab still running 90 s after the candidate was killed while verifying:\n%s", bg.stderr.String())
	}
	t.Logf("ended %s after the kill", time.Since(killed).Round(time.Second))
	ab, err := readABFile(out)
	if err != nil {
		t.Fatalf("exit %d, no file: %v\n%s", code, err, bg.stderr.String())
	}
	if code != ExitServerLost || !strings.Contains(ab.B.Failed, "verifying results") || ab.A.Failed != "" || ab.Verdict != results.ABRegressed {
		t.Errorf("exit %d, verdict %s, a.failed %q, b.failed %q: want 21, regressed, B lost while verifying", code, ab.Verdict, ab.A.Failed, ab.B.Failed)
	}
}

// TestABCandidateKilledInTheRounds: a candidate killed between its rounds
// (the default timeouts) is lost: exit 21, and b.failed says it stopped
// answering, not that it "answered no operation".
func TestABCandidateKilledInTheRounds(t *testing.T) {
	s := newABSides(t, 500)
	out := filepath.Join(t.TempDir(), "ab.json")
	bg := runInBackground(s.ctx, "ab", s.workload, "--uri", s.uriA, "--candidate-uri", s.uriB, "--seed", "500", "--drop",
		"--verify", "5", "--rounds", "3", "--duration", "1s", "--out", out)
	testserver.Await(t, 60*time.Second, "B's first round", func() bool { return strings.Contains(bg.stderr.String(), "round 1 B:") })
	if err := syscall.Kill(s.pidB, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	code, stdout, errs := bg.wait()
	ab, err := readABFile(out)
	if err != nil {
		t.Fatalf("exit %d, no file: %v\n%s%s", code, err, stdout, errs)
	}
	if code != ExitServerLost || !strings.Contains(ab.B.Failed, "stopped answering") || ab.A.Failed != "" {
		t.Errorf("exit %d, a.failed %q, b.failed %q: want 21 and B stopped answering\n%s", code, ab.A.Failed, ab.B.Failed, errs)
	}
}

// TestABRefusesBeforeEitherSideChanges: a collection of the candidate's
// that mongoload did not create is refused (exit 19) before the baseline's
// collection is created or seeded.
func TestABRefusesBeforeEitherSideChanges(t *testing.T) {
	s := newABSides(t, 100)
	s.command(t, s.b, bson.D{{Key: "insert", Value: "items"}, {Key: "documents", Value: bson.A{bson.D{{Key: "_id", Value: "the application's"}}}}})
	code, _, errs := runCLI(t, s.ctx, nil, "ab", s.workload, "--uri", s.uriA, "--candidate-uri", s.uriB, "--seed", "100", "--rounds", "2")
	if code != ExitSetup || !strings.Contains(errs, "side B") {
		t.Fatalf("exit %d, want %d naming side B: %s", code, ExitSetup, errs)
	}
	names, err := s.a.Command(s.ctx, s.db, bson.D{{Key: "listCollections", Value: 1}, {Key: "nameOnly", Value: true}})
	if err != nil {
		t.Fatal(err)
	}
	batch, _ := names.Lookup("cursor", "firstBatch").ArrayOK()
	if vals, _ := batch.Values(); len(vals) > 0 {
		t.Errorf("the baseline was changed before side B was refused: %s holds %s", s.db, batch)
	}
}

// copyBooks makes B a restored copy of A's books: every document, and
// the application's two indexes.
func copyBooks(t *testing.T, ctx context.Context, from, to *mongodb.Client, db string) {
	t.Helper()
	if _, err := to.Command(ctx, db, bson.D{{Key: "dropDatabase", Value: 1}}); err != nil {
		t.Fatal(err)
	}
	_, docs, err := from.Sample(ctx, db, "books", 1_000_000)
	if err != nil {
		t.Fatal(err)
	}
	for lo := 0; lo < len(docs); lo += 500 {
		batch := bson.A{}
		for _, d := range docs[lo:min(lo+500, len(docs))] {
			batch = append(batch, d)
		}
		if _, err := to.Command(ctx, db, bson.D{{Key: "insert", Value: "books"}, {Key: "documents", Value: batch}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := to.Command(ctx, db, bson.D{{Key: "createIndexes", Value: "books"}, {Key: "indexes", Value: bson.A{
		bson.D{{Key: "key", Value: bson.D{{Key: "isbn", Value: 1}}}, {Key: "name", Value: "isbn_1"}, {Key: "unique", Value: true}},
		bson.D{{Key: "key", Value: bson.D{{Key: "genre", Value: 1}, {Key: "pages", Value: 1}}}, {Key: "name", Value: "genre_1_pages_1"}},
	}}}); err != nil {
		t.Fatal(err)
	}
}

// TestABCapturedWorkloadOnCopies: the DBA's workflow. An application's
// traffic captured (without --keep-values) from its server, two restored
// copies of its data (A and B), ab with --allow-existing. A/A: no verified result differs
// (the application's inserts included), the indexes agree, and the lookup
// by the author's name (identifying: written as synthetic names) is said
// not compared on data, with the reason. With {genre: 1, pages: 1}
// dropped on B: B still lacks it after ab, and ab names it.
func TestABCapturedWorkloadOnCopies(t *testing.T) {
	ctx := context.Background()
	uriApp := testserver.URI(t)
	copyA, copyB := testserver.Twins(t) // the two restored copies: alike
	uriA, uriB := copyA.URI, copyB.URI
	db := fmt.Sprintf("ab_%d_captured", os.Getpid())
	app, a, b := connectTest(t, ctx, uriApp), connectTest(t, ctx, uriA), connectTest(t, ctx, uriB)
	t.Cleanup(func() { _, _ = app.Command(context.Background(), db, bson.D{{Key: "dropDatabase", Value: 1}}) })
	runLibrary(t, ctx, app, db, 600)
	// and lookups by the author's name (identifying: capture writes
	// synthetic names for it, which no copy holds)
	if _, err := app.Command(ctx, db, bson.D{{Key: "profile", Value: 2}}); err != nil {
		t.Fatal(err)
	}
	_, some, err := app.Sample(ctx, db, "books", 300)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range some {
		name, _ := d.Lookup("author", "name").StringValueOK()
		if _, err := app.Command(ctx, db, bson.D{{Key: "find", Value: "books"}, {Key: "filter", Value: bson.D{{Key: "author.name", Value: name}}}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := app.Command(ctx, db, bson.D{{Key: "profile", Value: 0}}); err != nil {
		t.Fatal(err)
	}
	w := filepath.Join(t.TempDir(), "library.yaml")
	if code, out, errs := runCLI(t, ctx, nil, "capture", "--uri", uriApp, "--database", db, "--out", w); code != 0 {
		t.Fatalf("capture exit %d: %s%s", code, out, errs)
	}
	ab := func(name string) (int, *results.AB, string) {
		out := filepath.Join(t.TempDir(), name+".json")
		code, stdout, errs := runCLI(t, ctx, nil, "ab", w, "--uri", uriA, "--candidate-uri", uriB, "--allow-existing",
			"--operation-seed", "11", "--rounds", "2", "--verify", "20", "--duration", "1s", "--warmup", "0s", "--out", out)
		f, err := readABFile(out)
		if err != nil {
			t.Fatalf("ab (%s) exit %d, no file: %v\n%s%s", name, code, err, stdout, errs)
		}
		return code, f, stdout + errs
	}

	copyBooks(t, ctx, app, a, db)
	copyBooks(t, ctx, app, b, db)
	code, aa, text := ab("aa")
	if code == ExitResultsDiffer || aa.Verdict == results.ABDiffers || aa.Data[0].IndexDiffs != nil {
		t.Errorf("A/A of a copy: exit %d, verdict %s, index differences %v:\n%s", code, aa.Verdict, aa.Data[0].IndexDiffs, text)
	}
	var empty []string
	for _, o := range aa.Operations {
		if o.ResultDiffs != 0 {
			t.Errorf("A/A: %s: %d of %d verified results differ: %+v", o.Name, o.ResultDiffs, o.Verified, o.Diffs)
		}
		// A write that matched nothing on both sides compared nothing
		// either (issue 46): said so, and counted apart.
		if o.NotComparedOnData && !(o.MatchedNothing > 0 && !strings.HasPrefix(o.Type, "find")) {
			empty = append(empty, o.Name)
		}
	}
	if len(empty) == 0 || !strings.Contains(aa.Summary, "not compared on data") || !strings.Contains(strings.Join(aa.Notes, " "), "--keep-values") {
		t.Errorf("no shape said not compared on data (summary %q, notes %q):\n%s", aa.Summary, aa.Notes, text)
	}
	for _, name := range empty {
		if !strings.Contains(name, "author") {
			t.Errorf("%s said not compared on data: only the lookup by the author's name finds nothing", name)
		}
	}

	copyBooks(t, ctx, app, a, db) // the rounds wrote to both: restored again
	copyBooks(t, ctx, app, b, db)
	if _, err := b.Command(ctx, db, bson.D{{Key: "dropIndexes", Value: "books"}, {Key: "index", Value: "genre_1_pages_1"}}); err != nil {
		t.Fatal(err)
	}
	_, dropped, text := ab("dropped")
	if keys := indexKeys(t, b, db, "books"); hasKeys(keys, "{genre: 1, pages: 1}") {
		t.Errorf("ab built {genre: 1, pages: 1} on B, a copy it did not create: %v", keys)
	}
	named := false
	for _, d := range dropped.Data {
		named = named || len(d.IndexDiffs) == 1 && strings.HasPrefix(d.IndexDiffs[0], "B lacks the index {genre: 1, pages: 1} (genre_1_pages_1)")
	}
	if !named || !strings.Contains(text, "B lacks the index {genre: 1, pages: 1}") {
		t.Errorf("the index B lacks is not named (%+v):\n%s", dropped.Data, text)
	}
	for _, o := range dropped.Operations {
		t.Logf("%s: %s, plan %s -> %s", o.Name, o.Flag, o.PlanA, o.PlanB)
	}
}

// TestABRefusesDifferentDataBeforeEitherSideChanges: without seeding, two
// sides whose data differ (B lacks the collection A holds) are refused
// (exit 27) before setup creates B's collection.
func TestABRefusesDifferentDataBeforeEitherSideChanges(t *testing.T) {
	s := newABSides(t, 300)
	if code, _, errs := runCLI(t, s.ctx, nil, "load", s.workload, "--uri", s.uriA, "--documents", "300", "--random-seed", "7", "--drop", "--workers", "1"); code != 0 {
		t.Fatalf("load exit %d: %s", code, errs)
	}
	code, _, errs := runCLI(t, s.ctx, nil, "ab", s.workload, "--uri", s.uriA, "--candidate-uri", s.uriB, "--allow-existing", "--rounds", "2")
	if code != ExitResultsDiffer || !strings.Contains(errs, "the two sides hold different data") {
		t.Fatalf("exit %d, want %d saying the data differ: %s", code, ExitResultsDiffer, errs)
	}
	names, err := s.b.Command(s.ctx, s.db, bson.D{{Key: "listCollections", Value: 1}, {Key: "nameOnly", Value: true}})
	if err != nil {
		t.Fatal(err)
	}
	batch, _ := names.Lookup("cursor", "firstBatch").ArrayOK()
	if vals, _ := batch.Values(); len(vals) > 0 {
		t.Errorf("the candidate was set up before the pair was refused: %s holds %s", s.db, batch)
	}
}

// TestABSaysEmptyComparisons: a read whose values match nothing on
// either side (a hand-written workload, not a captured one) is said not
// compared on data, in its sentence, the summary and a note; a read that
// finds documents is not.
func TestABSaysEmptyComparisons(t *testing.T) {
	s := newABSides(t, 500)
	w := rewrite(t, s.workload, "operations:\n", "operations:\n  - {name: ghost, type: find, weight: 30, filter: {org: {$gen: enum, values: [zz1, zz2]}}, limit: 5}\n")
	code, ab, text := s.abWith(t, w, "--seed", "500", "--random-seed", "7", "--rounds", "2", "--verify", "20")
	if code == ExitResultsDiffer {
		t.Fatalf("exit %d:\n%s", code, text)
	}
	ghost, byOrg := opOf(t, ab, "ghost"), opOf(t, ab, "by_org")
	if !ghost.NotComparedOnData || ghost.EmptyA != 1 || ghost.EmptyB != 1 {
		t.Errorf("ghost: notComparedOnData %v, empty %.2f/%.2f, want true, 1/1", ghost.NotComparedOnData, ghost.EmptyA, ghost.EmptyB)
	}
	if byOrg.NotComparedOnData || byOrg.EmptyA != 0 {
		t.Errorf("by_org finds documents: notComparedOnData %v, emptyA %.2f", byOrg.NotComparedOnData, byOrg.EmptyA)
	}
	notes := strings.Join(ab.Notes, " ")
	if !strings.Contains(ab.Summary, "not compared on data (no documents on either side): ghost") || !strings.Contains(notes, "ghost returned no documents") ||
		strings.Contains(notes, "captured") || !strings.Contains(text, "ghost: returned no documents in 100% of its verified operations on A and 100% on B") {
		t.Errorf("summary %q, notes %q:\n%s", ab.Summary, ab.Notes, text)
	}
}
