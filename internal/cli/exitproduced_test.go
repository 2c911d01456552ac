package cli

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/run"
)

// TestEveryExitCodeProduced: every exit code of docs/exit-codes.md (each
// has its Exit constant: TestExitCodesDocumented) is expected by at least
// one test of this package, by name, or, where no test can cause its real
// path, its classification is checked here and the code is declared at
// the place that exits with it. A code nothing produces, or a documented
// promise no test holds, fails.
func TestEveryExitCodeProduced(t *testing.T) {
	unreliable := false
	// Paths a test cannot take: a bug (1), a server whose CPU cannot be
	// measured (32: the test server's can), a noisy host (25: a quiet
	// one cannot be made noisy on purpose). Their classification:
	here := map[int]error{
		ExitInternal:    errors.New("an error nothing classified"),
		ExitNoServerCPU: &run.Error{Kind: run.NoServerCPU, Err: errors.New("no CPU times")},
		ExitNoise:       noiseExit(&unreliable, "other work on the host", false),
	}
	for code, err := range here {
		if got := exitCode(err); got != code {
			t.Errorf("exit %d: its failure exits %d", code, got)
		}
	}
	if noiseExit(&unreliable, "x", true) != nil {
		t.Errorf("--accept-noise still exits %d", ExitNoise)
	}
	// A second Ctrl-C (130) exits in cmd/mongoload, outside Run.
	if main, err := os.ReadFile("../../cmd/mongoload/main.go"); err != nil || !strings.Contains(string(main), "os.Exit(cli.ExitAbandoned)") {
		t.Errorf("cmd/mongoload no longer exits with ExitAbandoned on a second signal (%v)", err)
	}
	declared := map[int]bool{ExitAbandoned: true}

	tests, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	for _, f := range tests {
		if f == "exitdoc_test.go" || f == "exitproduced_test.go" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text.Write(b)
	}
	for code, name := range exitConstants(t) {
		if _, ok := here[code]; ok || declared[code] || code == ExitOK {
			continue
		}
		if !regexp.MustCompile(`\b` + name + `\b`).MatchString(text.String()) {
			t.Errorf("exit %d (%s) is documented, but no test of internal/cli expects it", code, name)
		}
	}
}
