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

// abWorkload is the A/B tests' workload on database db: by_org reads by an
// index the test creates (not the workload: ab's setup must not put back
// an index the test drops), by_id by _id, bump writes, pinned reads _id 0.
func abWorkload(t *testing.T, db string) string {
	t.Helper()
	orgs := make([]string, 50)
	for i := range orgs {
		orgs[i] = fmt.Sprintf("o%02d", i)
	}
	list := "[" + strings.Join(orgs, ", ") + "]"
	w := fmt.Sprintf(`name: ab-test
collections:
  - database: %s
    name: items
    template:
      _id: {$gen: key}
      org: {$gen: enum, values: %s}
      qty: {$gen: int, min: 0, max: 1000}
      note: {$gen: string, length: 100}
operations:
  - {name: by_org, type: find, weight: 30, filter: {org: {$gen: enum, values: %s}}, limit: 20}
  - {name: by_id, type: findOne, weight: 30, filter: {_id: {$gen: key}}}
  - {name: bump, type: updateOne, weight: 20, filter: {_id: {$gen: key}}, update: {$inc: {qty: 1}}}
  - {name: pinned, type: findOne, weight: 20, filter: {_id: 0}}
run:
  concurrency: 1
  duration: 300ms
  warmup: 200ms
`, db, list, list)
	path := filepath.Join(t.TempDir(), "ab.yaml")
	if err := os.WriteFile(path, []byte(w), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// abSides are the two real test servers of an A/B test and its workload.
type abSides struct {
	ctx          context.Context
	uriA, uriB   string
	a, b         *mongodb.Client
	db, workload string
	docs         int
	pidB         int // B's server, which a test may kill
}

func newABSides(t *testing.T, docs int) *abSides {
	ctx := context.Background()
	// two fresh servers alike, both the test's: never the suite's shared
	// server, which every test before has aged (testserver.Twins)
	a, b := testserver.Twins(t)
	s := &abSides{ctx: ctx, uriA: a.URI, uriB: b.URI, pidB: b.PID(), docs: docs}
	s.db = fmt.Sprintf("ab_%d_%s", os.Getpid(), strings.ToLower(strings.TrimPrefix(t.Name(), "Test")))
	s.a, s.b = connectTest(t, ctx, s.uriA), connectTest(t, ctx, s.uriB)
	s.workload = abWorkload(t, s.db)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // B may have been killed
		defer cancel()
		for _, c := range []*mongodb.Client{s.a, s.b} {
			_, _ = c.Command(ctx, s.db, bson.D{{Key: "dropDatabase", Value: 1}})
		}
	})
	return s
}

// prepare loads both sides alike (one inserter: the same documents in the
// same order) and gives both the index {org: 1}.
func (s *abSides) prepare(t *testing.T) {
	t.Helper()
	for _, side := range []struct {
		uri string
		c   *mongodb.Client
	}{{s.uriA, s.a}, {s.uriB, s.b}} {
		code, _, errs := runCLI(t, s.ctx, nil, "load", s.workload, "--uri", side.uri, "--documents", fmt.Sprint(s.docs),
			"--random-seed", "7", "--drop", "--workers", "1")
		if code != 0 {
			t.Fatalf("load exit %d: %s", code, errs)
		}
		s.command(t, side.c, bson.D{{Key: "createIndexes", Value: "items"},
			{Key: "indexes", Value: bson.A{bson.D{{Key: "key", Value: bson.D{{Key: "org", Value: 1}}}, {Key: "name", Value: "org_1"}}}}})
	}
}

func (s *abSides) command(t *testing.T, c *mongodb.Client, cmd bson.D) {
	t.Helper()
	if _, err := c.Command(s.ctx, s.db, cmd); err != nil {
		t.Fatalf("%v: %v", cmd, err)
	}
}

// ab runs mongoload ab and reads its file.
func (s *abSides) ab(t *testing.T, extra ...string) (int, *results.AB, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "ab.json")
	args := append([]string{"ab", s.workload, "--uri", s.uriA, "--candidate-uri", s.uriB, "--seed", fmt.Sprint(s.docs),
		"--random-seed", "7", "--operation-seed", "11", "--out", out}, extra...)
	code, stdout, errs := runCLI(t, s.ctx, nil, args...)
	ab, err := readABFile(out)
	if err != nil {
		t.Fatalf("ab exit %d wrote no file (%v): %s%s", code, err, stdout, errs)
	}
	return code, ab, stdout + errs
}

func opOf(t *testing.T, ab *results.AB, name string) results.ABOperation {
	t.Helper()
	for _, o := range ab.Operations {
		if o.Name == name {
			return o
		}
	}
	t.Fatalf("no operation %s in the file", name)
	return results.ABOperation{}
}

// TestABIdenticalServersFlagNothing: of ten comparisons of two identical
// servers (each reseeded alike by ab itself) at most one flags anything,
// and none finds results that differ. The comparison is the unit: a moment
// of other work on the host moves every operation of one comparison at
// once (both of comparison 3's, 1.15x, in a CI rehearsal), not one.
func TestABIdenticalServersFlagNothing(t *testing.T) {
	testserver.Timing(t) // latencies compared: meaningless under the race detector
	s := newABSides(t, 2000)
	flagged := 0
	for i := range 10 {
		code, ab, text := s.ab(t, "--drop", "--seed-workers", "1", "--rounds", "3", "--verify", "20")
		moved := false
		for _, o := range ab.Operations {
			if o.Flag != results.FlagNone {
				moved = true
				t.Logf("comparison %d flagged %s (%s): %s", i+1, o.Name, o.Flag, o.Why)
			}
			if o.ResultDiffs != 0 {
				t.Errorf("comparison %d: %s: %d verified results differ on identical data: %+v", i+1, o.Name, o.ResultDiffs, o.Diffs)
			}
			if o.PlanChanged {
				t.Errorf("comparison %d: %s: plan %s -> %s on identical servers", i+1, o.Name, o.PlanA, o.PlanB)
			}
		}
		if code != 0 && !(code == ExitRegression && ab.Verdict == results.ABRegressed) {
			t.Fatalf("comparison %d: exit %d, verdict %s:\n%s", i+1, code, ab.Verdict, text)
		}
		if moved {
			flagged++
		}
	}
	if flagged > 1 {
		t.Errorf("%d of ten A/A comparisons flagged operations, at most one allowed", flagged)
	}
}

// TestABIndexDropped: {org: 1} dropped on the candidate flags by_org, the
// one shape that used it, with its plan change named; the others are not
// flagged as regressions and their results agree.
func TestABIndexDropped(t *testing.T) {
	testserver.Timing(t) // latencies compared: meaningless under the race detector
	s := newABSides(t, 20000)
	s.prepare(t)
	s.command(t, s.b, bson.D{{Key: "dropIndexes", Value: "items"}, {Key: "index", Value: "org_1"}})
	code, ab, text := s.ab(t, "--rounds", "4", "--verify", "30")
	for _, o := range ab.Operations {
		t.Logf("%s: %s (shift %.3f, round shifts %v, p %.3g)", o.Name, o.Flag, o.Shift, o.RoundShifts, o.P)
	}
	if code != ExitRegression || ab.Verdict != results.ABRegressed {
		t.Fatalf("exit %d verdict %s, want %d regressed:\n%s", code, ab.Verdict, ExitRegression, text)
	}
	org := opOf(t, ab, "by_org")
	if org.Flag != results.FlagRegression || org.PlanA != "IXSCAN { org: 1 }" || org.PlanB != "COLLSCAN" || !org.PlanChanged {
		t.Errorf("by_org: flag %s, plan %q -> %q (%s)", org.Flag, org.PlanA, org.PlanB, org.Why)
	}
	if !org.CountOnly || org.ResultDiffs != 0 {
		t.Errorf("by_org (a limit without a sort): countOnly %v, resultDiffs %d", org.CountOnly, org.ResultDiffs)
	}
	for _, name := range []string{"by_id", "bump", "pinned"} {
		o := opOf(t, ab, name)
		if o.Flag == results.FlagRegression || o.PlanChanged || o.ResultDiffs != 0 {
			t.Errorf("%s: flag %s, plan %q -> %q, %d results differ: it never used {org: 1}", name, o.Flag, o.PlanA, o.PlanB, o.ResultDiffs)
		}
	}
	if !strings.Contains(text, "by_org: p99") || !strings.Contains(text, "plan IXSCAN { org: 1 } → COLLSCAN") {
		t.Errorf("no verdict sentence for by_org naming the plan change:\n%s", text)
	}
}

// TestABChangedDocument: one document changed on the candidate is named by
// its _id in the verified operation that reads it; without --seed, ab
// refuses to measure sides whose data differ, naming the collection.
func TestABChangedDocument(t *testing.T) {
	s := newABSides(t, 2000)
	s.prepare(t)
	s.command(t, s.b, bson.D{{Key: "update", Value: "items"},
		{Key: "updates", Value: bson.A{bson.D{{Key: "q", Value: bson.D{{Key: "_id", Value: 0}}}, {Key: "u", Value: bson.D{{Key: "$set", Value: bson.D{{Key: "qty", Value: -1}}}}}}}}})

	code, _, errs := runCLI(t, s.ctx, nil, "ab", s.workload, "--uri", s.uriA, "--candidate-uri", s.uriB, "--rounds", "2", "--verify", "10")
	if code != ExitResultsDiffer || !strings.Contains(errs, s.db+".items") || !strings.Contains(errs, "differ from _id 0") {
		t.Errorf("unseeded sides with different data: exit %d, want %d naming %s.items and _id 0: %s", code, ExitResultsDiffer, s.db, errs)
	}

	code, ab, text := s.ab(t, "--rounds", "2", "--verify", "20")
	if code != ExitResultsDiffer || ab.Verdict != results.ABDiffers {
		t.Fatalf("exit %d verdict %s, want %d differs:\n%s", code, ab.Verdict, ExitResultsDiffer, text)
	}
	p := opOf(t, ab, "pinned")
	if p.ResultDiffs != p.Verified || p.Verified == 0 || len(p.Diffs) == 0 || p.Diffs[0].ID != "0" || !strings.Contains(p.Diffs[0].Filter, `"_id"`) {
		t.Errorf("pinned: %d of %d differ, diffs %+v: want every one, naming _id 0 and its filter", p.ResultDiffs, p.Verified, p.Diffs)
	}
	if !strings.Contains(text, "pinned: ") || !strings.Contains(text, "_id 0") {
		t.Errorf("no sentence naming pinned and _id 0:\n%s", text)
	}
}

// TestABRefusesTheSameURI: the same deployment twice is an A/A run, which
// must be asked for; a missing candidate is named.
func TestABRefusesTheSameURI(t *testing.T) {
	ctx := context.Background()
	w := abWorkload(t, "ab_refuse")
	uri := "mongodb://127.0.0.1:1/"
	code, _, errs := runCLI(t, ctx, nil, "ab", w, "--uri", uri, "--candidate-uri", uri)
	if code != ExitUsage || !strings.Contains(errs, "--allow-same") || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
		t.Errorf("same URI: exit %d, want %d in one line naming --allow-same: %q", code, ExitUsage, errs)
	}
	code, _, errs = runCLI(t, ctx, nil, "ab", w, "--uri", uri)
	if code != ExitUsage || !strings.Contains(errs, "--candidate-uri") {
		t.Errorf("no candidate: exit %d, want %d naming --candidate-uri: %q", code, ExitUsage, errs)
	}
	code, _, errs = runCLI(t, ctx, nil, "ab", w, "--uri", uri, "--candidate-uri", "mongodb://127.0.0.1:2/", "--threshold", "NaN", "--rounds", "1")
	if code != ExitInvalid || !strings.Contains(errs, "--threshold") || !strings.Contains(errs, "--rounds") {
		t.Errorf("bad numbers: exit %d, want %d naming --threshold and --rounds: %q", code, ExitInvalid, errs)
	}
}

// TestABGuardsTheSource: a captured workload's source is refused on
// either side, before anything is written there, unless --write-to-source.
func TestABGuardsTheSource(t *testing.T) {
	s := newABSides(t, 100)
	id, err := s.b.Deployment(s.ctx)
	if err != nil {
		t.Fatal(err)
	}
	text, _ := os.ReadFile(s.workload)
	captured := filepath.Join(t.TempDir(), "captured.yaml")
	if err := os.WriteFile(captured, append([]byte(fmt.Sprintf("capturedFrom: [%s]\n", strings.Join(id, ", "))), text...), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runCLI(t, s.ctx, nil, "ab", captured, "--uri", s.uriA, "--candidate-uri", s.uriB, "--seed", "100", "--rounds", "2")
	if code != ExitSetup || !strings.Contains(errs, "side B") || !strings.Contains(errs, "--write-to-source") {
		t.Errorf("the candidate is the source: exit %d, want %d naming side B and --write-to-source: %s", code, ExitSetup, errs)
	}
	var n int64
	if n, err = s.b.CountExact(s.ctx, s.db, "items"); err != nil || n != 0 {
		t.Errorf("the source holds %d documents of the workload (%v): nothing may be written there", n, err)
	}
}

// TestABCandidateLost: the candidate killed during the rounds is measured
// through and named, the file is still written, and the verdict is a
// regression: never an improvement because a side stopped answering.
func TestABCandidateLost(t *testing.T) {
	s := newABSides(t, 2000)
	s.prepare(t)
	out := filepath.Join(t.TempDir(), "ab.json")
	bg := runInBackground(s.ctx, "ab", s.workload, "--uri", s.uriA, "--candidate-uri", s.uriB, "--seed", "2000",
		"--rounds", "3", "--verify", "5", "--server-selection-timeout", "1s", "--op-timeout", "1s", "--grace", "1s", "--out", out)
	testserver.Await(t, 60*time.Second, "round 1 on A", func() bool { return strings.Contains(bg.stderr.String(), "round 1 A:") })
	if err := syscall.Kill(s.pidB, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	code, stdout, errs := bg.wait()
	t.Logf("%s", errs)
	ab, err := readABFile(out)
	if err != nil {
		t.Fatalf("exit %d, no file: %v\n%s%s", code, err, stdout, errs)
	}
	if (code != ExitRegression && code != ExitServerLost) || ab.Verdict != results.ABRegressed || ab.B.Failed == "" || ab.A.Failed != "" {
		t.Errorf("exit %d, verdict %s, a.failed %q, b.failed %q: want 26 or 21, regressed, B named\n%s%s", code, ab.Verdict, ab.A.Failed, ab.B.Failed, stdout, errs)
	}
	for _, o := range ab.Operations {
		if o.Flag == results.FlagImprovement {
			t.Errorf("%s flagged an improvement with the candidate dead: %s", o.Name, o.Why)
		}
	}
	if !strings.Contains(stdout, "B (candidate)") || !strings.Contains(stdout+errs, ab.B.Failed) {
		t.Errorf("the report does not say the candidate failed (%s):\n%s", ab.B.Failed, stdout)
	}
}

// TestABSlowerCandidate: a candidate that gets less CPU (its server
// stopped for 4 ms of every 5 once the rounds begin, as a host with fewer
// cores would hold it back; stopped half the time, the faster half of each
// shape's distribution would not move) is flagged a regression in every shape, its
// plans unchanged.
func TestABSlowerCandidate(t *testing.T) {
	testserver.Timing(t) // latencies compared: meaningless under the race detector
	s := newABSides(t, 2000)
	s.prepare(t)
	out := filepath.Join(t.TempDir(), "ab.json")
	bg := runInBackground(s.ctx, "ab", s.workload, "--uri", s.uriA, "--candidate-uri", s.uriB, "--seed", "2000",
		"--rounds", "5", "--verify", "0", "--out", out)
	testserver.Await(t, 60*time.Second, "the rounds to begin", func() bool { return strings.Contains(bg.stderr.String(), "round 1 of") })
	stop, done := make(chan struct{}), make(chan struct{})
	go func() { // the throttle is the fault itself, not a wait
		defer close(done)
		defer func() { _ = syscall.Kill(s.pidB, syscall.SIGCONT) }()
		for {
			select {
			case <-stop:
				return
			default:
			}
			_ = syscall.Kill(s.pidB, syscall.SIGSTOP)
			time.Sleep(4 * time.Millisecond)
			_ = syscall.Kill(s.pidB, syscall.SIGCONT)
			time.Sleep(time.Millisecond)
		}
	}()
	code, stdout, errs := bg.wait()
	close(stop)
	<-done
	ab, err := readABFile(out)
	if err != nil {
		t.Fatalf("exit %d, no file: %v\n%s%s", code, err, stdout, errs)
	}
	if code != ExitRegression || ab.Verdict != results.ABRegressed {
		t.Fatalf("exit %d verdict %s, want %d regressed:\n%s%s", code, ab.Verdict, ExitRegression, stdout, errs)
	}
	for _, o := range ab.Operations {
		if o.Flag != results.FlagRegression || o.PlanChanged {
			t.Errorf("%s: flag %s, plan %q -> %q (%s): every shape is slower, none changed plan", o.Name, o.Flag, o.PlanA, o.PlanB, o.Why)
		}
	}
}

// TestABParallel: both sides at once each round, at one open-loop rate;
// without a rate --parallel is refused.
func TestABParallel(t *testing.T) {
	s := newABSides(t, 500)
	s.prepare(t)
	code, _, errs := runCLI(t, s.ctx, nil, "ab", s.workload, "--uri", s.uriA, "--candidate-uri", s.uriB, "--parallel")
	if code != ExitUsage || !strings.Contains(errs, "--rate") {
		t.Errorf("--parallel without a rate: exit %d, want %d naming --rate: %s", code, ExitUsage, errs)
	}
	code, ab, text := s.ab(t, "--parallel", "--rate", "200", "--rounds", "2", "--verify", "5")
	if code != 0 && code != ExitRegression {
		t.Fatalf("exit %d:\n%s", code, text)
	}
	if !ab.Method.Parallel || len(ab.Runs) != 4 {
		t.Errorf("parallel %v, %d runs: want both sides in each of 2 rounds", ab.Method.Parallel, len(ab.Runs))
	}
	for _, r := range ab.Runs {
		if r.Result == nil || r.Result.Load.Type != results.Open || r.Result.Load.Rate != 200 {
			t.Errorf("round %d side %s: not an open loop at 200/s", r.Round, r.Side)
		}
	}
}

// TestABRefusesOneDeploymentTwice: two spellings of one server's URI are
// one deployment, refused without --allow-same before anything is
// measured; with it, the A/A run goes ahead.
func TestABRefusesOneDeploymentTwice(t *testing.T) {
	ctx := context.Background()
	uri := testserver.URI(t)
	other := strings.Replace(uri, "127.0.0.1", "localhost", 1)
	if other == uri {
		t.Skipf("the test server's URI %s has no 127.0.0.1 to spell another way", uri)
	}
	w := abWorkload(t, fmt.Sprintf("ab_%d_same", os.Getpid()))
	code, _, errs := runCLI(t, ctx, nil, "ab", w, "--uri", uri, "--candidate-uri", other, "--seed", "100", "--rounds", "2", "--verify", "0")
	if code != ExitUsage || !strings.Contains(errs, "same deployment") || !strings.Contains(errs, "--allow-same") {
		t.Errorf("one deployment under two URIs: exit %d, want %d naming --allow-same: %s", code, ExitUsage, errs)
	}
	if strings.Contains(errs, "seed ") {
		t.Errorf("seeded before refusing: %s", errs)
	}
	code, stdout, errs := runCLI(t, ctx, nil, "ab", w, "--uri", uri, "--candidate-uri", other, "--seed", "100", "--rounds", "2", "--verify", "0", "--allow-same")
	if code != 0 && code != ExitRegression {
		t.Errorf("A/A with --allow-same: exit %d: %s%s", code, stdout, errs)
	}
}

// TestABOwnershipPerSide: a collection of the candidate's that mongoload
// did not create is refused (exit 19, side B named) before anything is
// written there, though the baseline's is its own.
func TestABOwnershipPerSide(t *testing.T) {
	s := newABSides(t, 100)
	s.command(t, s.b, bson.D{{Key: "insert", Value: "items"}, {Key: "documents", Value: bson.A{bson.D{{Key: "_id", Value: "the application's"}}}}})
	code, _, errs := runCLI(t, s.ctx, nil, "ab", s.workload, "--uri", s.uriA, "--candidate-uri", s.uriB, "--seed", "100", "--rounds", "2")
	if code != ExitSetup || !strings.Contains(errs, "side B") || !strings.Contains(errs, "--allow-existing") {
		t.Errorf("the candidate's collection is not mongoload's: exit %d, want %d naming side B and --allow-existing: %s", code, ExitSetup, errs)
	}
	if n, err := s.b.CountExact(s.ctx, s.db, "items"); err != nil || n != 1 {
		t.Errorf("the candidate's collection holds %d documents (%v), want its own 1: nothing may be written there", n, err)
	}
}
