package ab

import (
	"math/rand/v2"
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

// TestBystanderJudgedAlone: a shape flagged either way with its plan the
// same on both sides, beside one whose plan changed, keeps its flag only
// if its timings alone show the same difference. The sibling that was
// missed: a read faster on the candidate only because the candidate was
// busier scanning (issue 46's last CI failure) was left an improvement.
func TestBystanderJudgedAlone(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	flat := []float64{1, 1, 1, 1, 1, 1, 1, 1}
	x := &comparison{Options: Options{Judge: DefaultABOptions()}}
	ab := &results.AB{Operations: []results.ABOperation{
		{Name: "by_customer", Flag: results.FlagRegression, PlanChanged: true},
		{Name: "by_status", Flag: results.FlagImprovement},
		{Name: "by_date", Flag: results.FlagNone, PlanChanged: true},
	}}
	blamed := culprits(ab)
	if len(blamed) != 1 || blamed[0] != "by_customer" {
		t.Fatalf("culprits %v, want by_customer alone (flagged and its plan changed)", blamed)
	}
	if bystander(&ab.Operations[0]) || !bystander(&ab.Operations[1]) || bystander(&ab.Operations[2]) {
		t.Fatalf("bystanders: want only by_status (flagged, plan unchanged)")
	}
	for _, c := range []struct {
		name        string
		flag        string
		aloneScale  float64
		wantFlag    string
		wantWhyPart string
	}{
		{"faster beside, same alone", results.FlagImprovement, 1, results.FlagNone, "faster only beside by_customer"},
		{"slower beside, same alone", results.FlagRegression, 1, results.FlagNone, "slower only beside by_customer"},
		{"faster alone too", results.FlagImprovement, 0.5, results.FlagImprovement, "on its own too"},
		{"slower alone too", results.FlagRegression, 2, results.FlagRegression, "on its own too"},
		{"faster beside, slower alone", results.FlagImprovement, 2, results.FlagRegression, "the other way"},
	} {
		o := results.ABOperation{Name: "by_status", Flag: c.flag, Shift: 0.8}
		ha, hb := rounds(r, 8, 25, 400, flat, 1), rounds(r, 8, 25, 400, flat, c.aloneScale)
		x.judgeAlone(&o, blamed, ha, hb, nil)
		if o.Flag != c.wantFlag || o.Collateral != (c.wantFlag == results.FlagNone) || !strings.Contains(o.Why, c.wantWhyPart) {
			t.Errorf("%s: flag %s, collateral %v, why %q; want %s, %q", c.name, o.Flag, o.Collateral, o.Why, c.wantFlag, c.wantWhyPart)
		}
	}
}
