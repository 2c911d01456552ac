package ab

import (
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/results"
)

// TestVerdictSaysWhatWasNotCompared (issue 46's doubtful cases): a shape
// that failed on both sides is not "same", and verified operations that
// matched nothing on both are not counted as agreement.
func TestVerdictSaysWhatWasNotCompared(t *testing.T) {
	failed := results.ABOperation{Name: "count_x", Flag: results.FlagNone, FailedOnBoth: true, Why: "every operation failed on both sides"}
	nothing := results.ABOperation{Name: "bump", Flag: results.FlagNone, Verified: 10, MatchedNothing: 4}
	for _, c := range []struct {
		name    string
		ops     []results.ABOperation
		verdict string
		says    string
	}{
		{"failed on both", []results.ABOperation{failed, nothing}, results.ABFailed, "every operation failed on both sides, so nothing of it was compared: count_x"},
		{"matched nothing", []results.ABOperation{nothing}, results.ABSame, "verified results agree (6 operations; 4 more matched nothing on either side"},
		{"all matched nothing", []results.ABOperation{{Name: "bump", Flag: results.FlagNone, Verified: 10, MatchedNothing: 10}}, results.ABSame, "no verified result compared: all 10 verified operations matched nothing"},
	} {
		ab := &results.AB{Operations: c.ops, Method: results.ABMethod{Verify: 100, Verified: 10, Threshold: 0.1}}
		verdict(ab)
		if ab.Verdict != c.verdict || !strings.Contains(ab.Summary, c.says) {
			t.Errorf("%s: verdict %s, summary %q; want %s saying %q", c.name, ab.Verdict, ab.Summary, c.verdict, c.says)
		}
	}
}
