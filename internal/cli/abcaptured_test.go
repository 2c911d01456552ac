package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/testserver"
)

// TestABCapturedWorkloadAllExplained: the built-in default workload
// (finds, updates, inserts, deletes, aggregations) runs on a server with
// the profiler on; its capture is compared A/A by mongoload ab on two
// servers ab seeds alike. Every shape's plan is known on both sides, each
// in its own form (an aggregation as an aggregate, an update as an
// update), or says why it has none (an insert); and no verified result
// differs, inserts included: both sides insert the same _ids (the captured
// template's objectId follows the seed), so later reads agree.
func TestABCapturedWorkloadAllExplained(t *testing.T) {
	ctx := context.Background()
	src := testserver.URI(t)
	cl := connectTest(t, ctx, src)
	if code, out, errs := runCLI(t, ctx, nil, "run", "default", "--uri", src, "--seed", "2000", "--duration", "1s", "--quiet"); code != 0 {
		t.Fatalf("seed: exit %d: %s%s", code, out, errs)
	}
	profileLevel(t, ctx, cl, "airline", 2)
	if code, out, errs := runCLI(t, ctx, nil, "run", "default", "--uri", src, "--duration", "2s", "--warmup", "0s", "--quiet"); code != 0 {
		t.Fatalf("run: exit %d: %s%s", code, out, errs)
	}
	if _, err := cl.Command(ctx, "airline", bson.D{{Key: "profile", Value: 0}}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	w := filepath.Join(dir, "w.yaml")
	if code, out, errs := runCLI(t, ctx, nil, "capture", "--uri", src, "--database", "airline", "--out", w); code != 0 {
		t.Fatalf("capture: exit %d: %s%s", code, out, errs)
	}
	cfg, err := config.Load(w)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, op := range cfg.Operations {
		kinds[op.Type] = true
	}
	for _, k := range []string{"aggregate", "insertOne"} {
		if !kinds[k] {
			t.Fatalf("the capture has no %s (types %v): the test needs one", k, kinds)
		}
	}
	sideA, sideB := testserver.Twins(t)
	a, b := sideA.URI, sideB.URI
	out := filepath.Join(dir, "ab.json")
	code, stdout, errs := runCLI(t, ctx, nil, "ab", w, "--uri", a, "--candidate-uri", b, "--seed", "2000", "--random-seed", "7",
		"--operation-seed", "11", "--rounds", "2", "--duration", "1s", "--warmup", "0s", "--out", out)
	ab, err := readABFile(out)
	if err != nil {
		t.Fatalf("ab exit %d wrote no file (%v): %s%s", code, err, stdout, errs)
	}
	as := map[string]string{"find": "find", "findOne": "find", "aggregate": "aggregate", "countDocuments": "aggregate",
		"updateOne": "update", "updateMany": "update", "replaceOne": "update", "deleteOne": "delete", "deleteMany": "delete",
		"findOneAndUpdate": "findAndModify"}
	for _, o := range ab.Operations {
		if o.ResultDiffs > 0 {
			t.Errorf("%s (%s): %d of %d verified results differ on two copies seeded alike: %+v", o.Name, o.Type, o.ResultDiffs, o.Verified, o.Diffs)
		}
		if o.ExplainA == nil || o.ExplainB == nil || o.PlanA == "" || o.PlanB == "" {
			t.Errorf("%s (%s): no plan and no reason (A %q, B %q)", o.Name, o.Type, o.PlanA, o.PlanB)
			continue
		}
		if strings.HasPrefix(o.Type, "insert") {
			if !strings.HasPrefix(o.PlanA, "not explained: ") {
				t.Errorf("%s (%s): plan %q, want why an insert has none", o.Name, o.Type, o.PlanA)
			}
			continue
		}
		for side, e := range map[string]string{"A": o.ExplainA.Error, "B": o.ExplainB.Error} {
			if e != "" {
				t.Errorf("%s (%s): side %s: %s", o.Name, o.Type, side, e)
			}
		}
		if want := as[o.Type]; o.ExplainA.As != want || o.ExplainB.As != want {
			t.Errorf("%s (%s): explained as %q/%q, want %q", o.Name, o.Type, o.ExplainA.As, o.ExplainB.As, want)
		}
	}
	if t.Failed() {
		t.Logf("ab exit %d:\n%s%s", code, stdout, errs)
	}
}
