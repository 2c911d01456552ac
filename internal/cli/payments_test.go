package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/testserver"
)

// TestPaymentsInvariants runs the built-in payments workload small and
// contended (100 cards, one merchant, 32 closed-loop workers, so that
// transactions conflict and are retried), then checks with verify that
// strict ACID held: balances, ledger and counters agree. It then corrupts
// one balance through mongoload itself and expects verify to say so, with
// its own exit code.
func TestPaymentsInvariants(t *testing.T) {
	uri, _ := testserver.Own(t) // the preset's database is fixed: a server of its own
	ctx := context.Background()
	out := filepath.Join(t.TempDir(), "r.json")
	code, stdout, stderr := runCLI(t, ctx, nil, "run", "payments", "--uri", uri, "--seed-scale", "0.0001",
		"--sessions", "0", "--concurrency", "32", "--duration", "3s", "--warmup", "0s", "--quiet", "--out", out)
	if code != 0 {
		t.Fatalf("run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	res, err := results.ReadJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	var auth *results.Operation
	for i := range res.Operations {
		if res.Operations[i].Name == "authorize" {
			auth = &res.Operations[i]
		}
	}
	if auth == nil || auth.Count == 0 {
		t.Fatalf("no authorize transactions in the results: %+v", res.Operations)
	}
	var retries int64
	for outcome, n := range auth.Outcomes {
		if strings.HasPrefix(outcome, "retry: ") {
			retries += n
		}
	}
	if retries == 0 {
		t.Errorf("32 workers on 100 cards and one merchant retried nothing: outcomes %v", auth.Outcomes)
	}
	t.Logf("authorize: %d transactions, outcomes %v", auth.Count, auth.Outcomes)

	code, stdout, stderr = runCLI(t, ctx, nil, "verify", "payments", "--uri", uri)
	if code != 0 || strings.Count(stdout, "PASS") != 4 || !strings.Contains(stdout, "all 4 invariants hold") {
		t.Fatalf("verify after a run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	t.Log(stdout)

	// Take one cent from card 7 behind the ledger's back.
	corrupt := writeFile(t, "corrupt.yaml", `
collections:
  - {database: payments, name: cards}
operations:
  - {name: corrupt, type: updateOne, weight: 1, filter: {card_id: 7}, update: {$inc: {balance: -1}}}
`)
	if code, _, stderr := runCLI(t, ctx, nil, "run", corrupt, "--uri", uri, "--operations", "1", "--duration", "0",
		"--concurrency", "1", "--setup=false", "--quiet"); code != 0 {
		t.Fatalf("corrupting a balance: exit %d: %s", code, stderr)
	}
	code, stdout, stderr = runCLI(t, ctx, nil, "verify", "payments", "--uri", uri)
	if code != ExitInvariant {
		t.Fatalf("verify after a corrupted balance: exit %d, want %d\n%s", code, ExitInvariant, stdout)
	}
	for _, want := range []string{"FAIL  debits = ledger", "card_id 7: debited", "PASS  cardholder counters", "PASS  no negative balance"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("verify output lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "1 of 4 invariants broken: debits = ledger") {
		t.Errorf("stderr: %q", stderr)
	}
}

// TestVerifyBadInput: every mistake gets one line naming the fix and its
// own exit code, without touching a server where none is needed.
func TestVerifyBadInput(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		want string // in stderr
	}{
		// The workload to verify is required: the invariants are the workload's.
		{"no workload", []string{"verify"}, ExitUsage, "give the workload whose invariants to check: payments, payments-heavy"},
		// A misspelt workload gets a suggestion.
		{"misspelt", []string{"verify", "paymnts"}, ExitUsage, `did you mean "payments"`},
		// A workload without known invariants.
		{"no invariants", []string{"verify", "ycsb-a"}, ExitUsage, "give the workload whose invariants to check"},
		// An unknown flag.
		{"unknown flag", []string{"verify", "payments", "--concurrency", "3"}, ExitUsage, "unknown flag: --concurrency"},
		// A URI that cannot be parsed, before any connection.
		{"bad uri", []string{"verify", "payments", "--uri", "mongodb://a:b:c:d"}, ExitBadURI, "cannot parse"},
		// A bad timeout names its flag.
		{"bad timeout", []string{"verify", "payments", "--server-selection-timeout", "soon"}, ExitInvalid, "--server-selection-timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, context.Background(), nil, tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, want %d; stderr %q, want %q", code, tt.code, stderr, tt.want)
			}
			if strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("more than one line: %q", stderr)
			}
		})
	}
}

// TestVerifyEmptyDatabase: verifying a database the workload never ran in
// is a mistake in the command line, not a broken invariant.
func TestVerifyEmptyDatabase(t *testing.T) {
	uri := testserver.URI(t)
	code, _, stderr := runCLI(t, context.Background(), nil, "verify", "payments", "--uri", uri, "--database", "mltest_no_payments_here")
	if code != ExitUsage || !strings.Contains(stderr, "mltest_no_payments_here.cards holds no card") || !strings.Contains(stderr, "--database") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}
