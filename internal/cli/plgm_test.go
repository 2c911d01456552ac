package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/report"
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
	code, stdout, stderr := run(t, context.Background(), env, "run", "--plgm-collections", plgmCollections, "--plgm-queries", plgmQueries,
		"--drop", "--out", out, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "warning: plgm: ../plgm/testdata/collections/orders.json:11: code.template: '^'") {
		t.Errorf("no located warning:\n%s", stderr)
	}
	res, err := report.ReadJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	if res.Config == nil || !strings.Contains(strings.ReplaceAll(string(res.Config), " ", ""), `"concurrency":3`) {
		t.Errorf("PLGM_CONCURRENCY not honoured: %s", res.Config)
	}
	if d := res.DurationSeconds; d < 1.9 || d > 3 {
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
	code, yaml, stderr := run(t, context.Background(), nil, "import", "plgm", "--collections", plgmCollections, "--queries", plgmQueries)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.HasPrefix(yaml, "# Converted from plgm") || !strings.Contains(stderr, "warning: plgm:") {
		t.Fatalf("output:\n%s\nstderr:\n%s", yaml, stderr)
	}
	p := writeFile(t, "plgm.yaml", yaml)
	if code, stdout, stderr := run(t, context.Background(), nil, "validate", p); code != 0 || !strings.Contains(stdout, "2 collection(s)") {
		t.Fatalf("validate: exit %d\n%s\n%s", code, stdout, stderr)
	}
	uri := testserver.URI(t)
	if code, stdout, stderr := run(t, context.Background(), nil, "load", p, "--uri", uri, "--documents", "300", "--drop"); code != 0 {
		t.Fatalf("load the imported workload: exit %d\n%s\n%s", code, stdout, stderr)
	}
	out := filepath.Join(t.TempDir(), "r.json")
	code, _, stderr = run(t, context.Background(), nil, "run", p, "--uri", uri, "--duration", "1s", "--concurrency", "2", "--quiet", "--out", out)
	if code != 0 {
		t.Fatalf("run the imported workload: exit %d: %s", code, stderr)
	}
	res, _ := report.ReadJSON(out)
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
			code, _, stderr := run(t, context.Background(), nil, tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, stderr, tt.code, tt.want)
			}
		})
	}
}
