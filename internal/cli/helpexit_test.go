package cli

import (
	"context"
	"strings"
	"testing"
)

// TestEveryCommandHelp: help is not an error (issue 30: COMMAND --help
// exited 1, "internal error", for 12 of 14 commands). Every command in the
// dispatch table, those added later included, answers --help and -h with
// exit 0 and its usage on standard output, nothing on standard error.
func TestEveryCommandHelp(t *testing.T) {
	for name := range commands {
		for _, flag := range []string{"--help", "-h"} {
			code, out, errs := runCLI(t, context.Background(), nil, name, flag)
			if code != ExitOK || !strings.HasPrefix(out, "Usage: mongoload "+name) || errs != "" {
				t.Errorf("mongoload %s %s: exit %d, stdout %.60q, stderr %q; want 0 and the usage on stdout", name, flag, code, out, errs)
			}
		}
	}
	for _, args := range [][]string{{"help"}, {"--help"}, {"report", "compare", "--help"}, {"verify", "payments", "--help"}} {
		if code, out, _ := runCLI(t, context.Background(), nil, args...); code != ExitOK || !strings.Contains(out, "Usage: mongoload") {
			t.Errorf("mongoload %s: exit %d, stdout %.60q", strings.Join(args, " "), code, out)
		}
	}
}
