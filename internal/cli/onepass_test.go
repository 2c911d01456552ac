package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/results"
)

// TestValidationInOnePass: every mistake of a command line is reported at
// once, the checks that need other packages than config (the SLO's
// grammar, the listen addresses, the URI's parser) with Validate's. They
// ran one after the other, each stopping the command, before.
func TestValidationInOnePass(t *testing.T) {
	code, _, stderr := runCLI(t, context.Background(), nil, "run", "--concurrency", "0", "--slo", "p99<=fast",
		"--dashboard", "nowhere", "--prometheus", "localhost", "--explain", "-1", "--uri", "mongodb://h:1/?w=x&w=y&bogus=%zz")
	if code != ExitInvalid {
		t.Errorf("exit %d, want %d", code, ExitInvalid)
	}
	for _, want := range []string{"concurrency", "--slo", "--dashboard", "--prometheus", "--explain", "connection.uri"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("%s is not reported:\n%s", want, stderr)
		}
	}
}

// TestTargetNoop: a run with no server and no URI writes its results, the
// operations answered at once, and says so (the oracle for the figure is
// the results file's own totals, equal to the count of the series).
func TestTargetNoop(t *testing.T) {
	out := filepath.Join(t.TempDir(), "n.json")
	code, stdout, stderr := runCLI(t, context.Background(), nil, "run", "--target", "noop", "--duration", "1s", "--warmup", "0s",
		"--concurrency", "2", "--quiet", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	res, err := results.ReadJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	for _, iv := range res.Intervals {
		for _, o := range iv.Ops {
			if o.Parent == "" {
				sum += o.Count
			}
		}
	}
	if res.Totals.Operations == 0 || res.Totals.Errors != 0 || sum != res.Totals.Operations {
		t.Errorf("%d operations (the series adds to %d), %d errors", res.Totals.Operations, sum, res.Totals.Errors)
	}
	if !strings.Contains(stdout, "--target noop: no server") {
		t.Errorf("the report does not say no server was used:\n%s", stdout)
	}
	if code, _, stderr := runCLI(t, context.Background(), nil, "run", "--target", "noop", "--fault", "at 1s: stepdown", "--duration", "2s"); code != ExitInvalid || !strings.Contains(stderr, "needs a server") {
		t.Errorf("a fault schedule without a server: exit %d: %s", code, stderr)
	}
}
