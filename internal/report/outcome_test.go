package report

import "testing"

// TestOutcomeText: the outcome is said once ("interrupted: interrupted"
// was printed for a Ctrl-C), with the reason when there is one.
func TestOutcomeText(t *testing.T) {
	tests := []struct {
		o      Outcome
		reason string
		want   string
	}{
		{Interrupted, "interrupted", "interrupted"}, // results written before the fix
		{Interrupted, "Ctrl-C or a signal", "interrupted: Ctrl-C or a signal"},
		{Interrupted, "interrupted during the last step", "interrupted: during the last step"},
		{Completed, "", "completed"},
		{ServerLost, "no answer for 12s", "server-lost: no answer for 12s"},
	}
	for _, tt := range tests {
		if got := OutcomeText(tt.o, tt.reason); got != tt.want {
			t.Errorf("%s + %q: %q, want %q", tt.o, tt.reason, got, tt.want)
		}
	}
}
