package report

import (
	"testing"

	"github.com/mongoload/mongoload/internal/results"
)

// TestOutcomeText: the outcome is said once ("interrupted: interrupted"
// was printed for a Ctrl-C), with the reason when there is one.
func TestOutcomeText(t *testing.T) {
	tests := []struct {
		o      results.Outcome
		reason string
		want   string
	}{
		{results.Interrupted, "interrupted", "interrupted"}, // results written before the fix
		{results.Interrupted, "Ctrl-C or a signal", "interrupted: Ctrl-C or a signal"},
		{results.Interrupted, "interrupted during the last step", "interrupted: during the last step"},
		{results.Completed, "", "completed"},
		{results.ServerLost, "no answer for 12s", "server-lost: no answer for 12s"},
	}
	for _, tt := range tests {
		if got := OutcomeText(tt.o, tt.reason); got != tt.want {
			t.Errorf("%s + %q: %q, want %q", tt.o, tt.reason, got, tt.want)
		}
	}
}
