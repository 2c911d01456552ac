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

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"

	"github.com/mongoload/mongoload/internal/testserver"
)

const (
	plgmCollections = "../plgm/testdata/collections"
	plgmQueries     = "../plgm/testdata/queries"
)

// TestRunPlgm runs plgm definitions unchanged (nested objects and arrays,
// placeholders, the plgm mix, PLGM_* variables) against the server: every
// operation runs, none fails, and the conversion warnings are one line each.
func TestRunPlgm(t *testing.T) {
	uri := testserver.URI(t)
	out := filepath.Join(t.TempDir(), "r.json")
	env := map[string]string{"PLGM_SKIP_SEED": "false", "PLGM_DOCUMENTS_COUNT": "500", "PLGM_CONCURRENCY": "3", "PLGM_DURATION": "2s", "PLGM_URI": uri}
	code, stdout, stderr := runCLI(t, context.Background(), env, "run", "--plgm-collections", plgmCollections, "--plgm-queries", plgmQueries,
		"--drop", "--out", out, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "warning: plgm: ../plgm/testdata/collections/orders.json:11: code.template: '^'") {
		t.Errorf("no located warning:\n%s", stderr)
	}
	res, err := results.ReadJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	if res.Config == nil || !strings.Contains(strings.ReplaceAll(string(res.Config), " ", ""), `"concurrency":3`) {
		t.Errorf("PLGM_CONCURRENCY not honoured: %s", res.Config)
	}
	if d := res.DurationSeconds; d < 1.9 || d > 2+5 { // and up to the 5s grace period on a busy machine
		t.Errorf("PLGM_DURATION=2s ran %.1fs", d)
	}
	for _, op := range res.Operations {
		if op.Errors > 0 {
			t.Errorf("%s: %v errors", op.Name, op.Errors)
		}
	}
	if len(res.Operations) < 12 || res.Totals.Operations < 100 {
		t.Fatalf("%d operations, %d done", len(res.Operations), res.Totals.Operations)
	}
}

// TestImportPlgm writes the equivalent workload file, which validates and
// runs.
func TestImportPlgm(t *testing.T) {
	code, yaml, stderr := runCLI(t, context.Background(), nil, "import", "plgm", "--collections", plgmCollections, "--queries", plgmQueries)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.HasPrefix(yaml, "# Converted from plgm") || !strings.Contains(stderr, "warning: plgm:") {
		t.Fatalf("output:\n%s\nstderr:\n%s", yaml, stderr)
	}
	p := writeFile(t, "plgm.yaml", yaml)
	if code, stdout, stderr := runCLI(t, context.Background(), nil, "validate", p); code != 0 || !strings.Contains(stdout, "2 collection(s)") {
		t.Fatalf("validate: exit %d\n%s\n%s", code, stdout, stderr)
	}
	uri := testserver.URI(t)
	if code, stdout, stderr := runCLI(t, context.Background(), nil, "load", p, "--uri", uri, "--documents", "300", "--drop"); code != 0 {
		t.Fatalf("load the imported workload: exit %d\n%s\n%s", code, stdout, stderr)
	}
	out := filepath.Join(t.TempDir(), "r.json")
	code, _, stderr = runCLI(t, context.Background(), nil, "run", p, "--uri", uri, "--duration", "1s", "--concurrency", "2", "--quiet", "--out", out)
	if code != 0 {
		t.Fatalf("run the imported workload: exit %d: %s", code, stderr)
	}
	res, _ := results.ReadJSON(out)
	if res == nil || res.Totals.Operations == 0 || res.Totals.Errors != 0 {
		t.Fatalf("imported run: %+v", res)
	}
}

// TestPlgmCommandLine: mistakes with the plgm flags are usage errors.
func TestPlgmCommandLine(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		// A workload and plgm definitions are two workloads.
		{"both", []string{"run", "default", "--plgm-collections", plgmCollections}, ExitUsage, "not both"},
		// import needs a format it knows.
		{"import what", []string{"import", "ycsb"}, ExitUsage, "the only format is plgm"},
		// A directory that is not there.
		{"missing dir", []string{"import", "plgm", "--collections", "nowhere"}, ExitUnreadable, "nowhere: cannot read the plgm collection definitions"},
		// Only queries: which collections?
		{"no collections", []string{"import", "plgm", "--queries", plgmQueries}, ExitInvalid, "--plgm-collections"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, context.Background(), nil, tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, stderr, tt.code, tt.want)
			}
		})
	}
}

// thingsPlgm is a plgm collection with no integer key and no queries: plgm
// updates and deletes it with its fallback filter {_id: "val-NNN"}.
const thingsPlgm = `{"collections": [{"database": "DB", "collection": "things",
  "fields": {"name": {"type": "string"}, "size": {"type": "int", "min": 0, "max": 100}}}]}`

// TestPlgmFixMisses: the faithful import warns that plgm's fallback filter
// can never match and, run, its updates and deletes all find nothing (the
// server holds no string _id for them to find) and are flagged; with
// --fix-misses they hit documents, and the documents the run says it
// deleted and inserted are what the collection lost and gained.
func TestPlgmFixMisses(t *testing.T) {
	uri := testserver.URI(t)
	for _, fix := range []bool{false, true} {
		t.Run(fmt.Sprintf("fix=%v", fix), func(t *testing.T) {
			db := fmt.Sprintf("ml_plgm_fix_%v_%d", fix, time.Now().UnixNano()%1e6)
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "things.json"), []byte(strings.ReplaceAll(thingsPlgm, "DB", db)), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"import", "plgm", "--collections", dir}
			if fix {
				args = append(args, "--fix-misses")
			}
			code, yaml, stderr := runCLI(t, context.Background(), nil, args...)
			if code != 0 {
				t.Fatalf("import: exit %d: %s", code, stderr)
			}
			if want := map[bool]string{false: "can never match", true: "--fix-misses: plgm's fallback filter"}[fix]; !strings.Contains(stderr, want) || !strings.Contains(yaml, want) {
				t.Fatalf("no warning %q on stderr and in the workload:\n%s", want, stderr)
			}
			wl := writeFile(t, "w.yaml", yaml)
			out := filepath.Join(t.TempDir(), "r.json")
			code, stdout, stderr := runCLI(t, context.Background(), nil, "run", wl, "--uri", uri, "--seed", "300", "--operations", "1500",
				"--duration", "0s", "--warmup", "0s", "--concurrency", "3", "--out", out)
			if code != 0 {
				t.Fatalf("run: exit %d\n%s\n%s", code, stdout, stderr)
			}
			res, err := results.ReadJSON(out)
			if err != nil {
				t.Fatal(err)
			}
			cl, err := mongodb.Connect(context.Background(), config.Connection{URI: uri})
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Close()
			count := func(filter bson.D) int64 {
				raw, err := cl.Command(context.Background(), db, bson.D{{Key: "count", Value: "things"}, {Key: "query", Value: filter}})
				if err != nil {
					t.Fatal(err)
				}
				return raw.Lookup("n").AsInt64()
			}
			var d metrics.Docs
			for _, op := range res.Operations {
				if op.Docs != nil {
					d.Add(*op.Docs)
				}
				if !strings.HasSuffix(op.Name, "_generated") {
					continue
				}
				flagged := strings.Contains(strings.Join(res.Notes, "\n"), op.Name+": 100% of")
				switch {
				case op.Docs == nil || op.Count == 0:
					t.Errorf("%s: %d operations, docs %+v", op.Name, op.Count, op.Docs)
				case !fix && (op.Docs.Empty != op.Count || !flagged):
					t.Errorf("%s: %d of %d found nothing (flagged %v); plgm's filter can find nothing", op.Name, op.Docs.Empty, op.Count, flagged)
				case fix && (op.Docs.EmptyShare() > 0.5 || flagged):
					t.Errorf("%s: %d of %d found nothing with --fix-misses", op.Name, op.Docs.Empty, op.Count)
				}
			}
			if n := count(bson.D{{Key: "_id", Value: bson.D{{Key: "$type", Value: "string"}}}}); n != 0 {
				t.Errorf("the server holds %d string ids", n)
			}
			if got, want := count(bson.D{}), 300+d.Inserted-d.Deleted; got != want {
				t.Errorf("the collection holds %d documents; 300 seeded + %d inserted - %d deleted = %d", got, d.Inserted, d.Deleted, want)
			}
			if fix && d.Deleted == 0 || !fix && d.Deleted+d.Matched != 0 {
				t.Errorf("fix=%v: deleted %d, matched %d", fix, d.Deleted, d.Matched)
			}
		})
	}
}

// TestImportWarnsOfFiltersThatCannotMatch: a plgm query whose placeholder
// draws numbers for a string field is warned of at import, with the rule a
// run's report uses, on stderr and in the workload's header.
func TestImportWarnsOfFiltersThatCannotMatch(t *testing.T) {
	q := writeFile(t, "q.json", `[{"database": "plgm_airline", "collection": "flights", "operation": "find", "filter": {"gate": "<int>"}},
  {"database": "plgm_airline", "collection": "flights", "operation": "find", "filter": {"flight_id": "<int>"}}]`)
	code, yaml, stderr := runCLI(t, context.Background(), nil, "import", "plgm", "--collections", "../plgm/testdata/collections/default.json", "--queries", q)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := "its filter can find nothing, as in plgm: the filter's gate values are numbers while the documents' gate values are strings"
	if !strings.Contains(stderr, want) || !strings.Contains(yaml, want) {
		t.Errorf("no warning %q:\n%s", want, stderr)
	}
	if strings.Count(stderr, "can find nothing") != 1 {
		t.Errorf("the flight_id query, which draws existing keys, is warned of too:\n%s", stderr)
	}
}
