package results

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"
	"time"
)

// TestFileHeadKeepsFieldOrder guards the embedded FileHead and StepSpan:
// the sweep and findmax files must keep their top-level field order
// (docs/sweep.md, docs/capacity.md), which embedding at another place
// would change without breaking any reader.
func TestFileHeadKeepsFieldOrder(t *testing.T) {
	head := FileHead{Schema: "s", Tool: Tool{Name: "mongoload"}, Label: "l", Cost: &Cost{}}
	span := StepSpan{StartedAt: time.Unix(5, 0).UTC(), Outcome: Completed, Reason: "r", Notes: []string{"n"}}
	tests := []struct {
		name string
		v    any
		want []string
	}{
		{"sweep", &Sweep{FileHead: head, StepSpan: span, Analysis: &SweepAnalysis{}, Calibration: &Calibration{}},
			[]string{"schema", "tool", "label", "cost", "workload", "load", "stepSeconds", "warmupSeconds", "cooldownSeconds",
				"startedAt", "endedAt", "outcome", "reason", "notes", "steps", "analysis", "calibration"}},
		{"findmax", &FindMax{FileHead: head, StepSpan: span, Estimate: &Result{}, FailedAbove: &FailedProbe{}, Calibration: &Calibration{}},
			[]string{"schema", "tool", "label", "cost", "workload", "slo", "achievedShare", "start", "startFrom", "estimate",
				"factor", "precision", "stepSeconds", "warmupSeconds", "cooldownSeconds", "startedAt", "endedAt", "outcome",
				"reason", "notes", "probes", "maxRate", "found", "bracketed", "failedAbove", "limit", "summary", "calibration"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.v)
			if err != nil {
				t.Fatal(err)
			}
			if got := topKeys(t, b); !slices.Equal(got, tt.want) {
				t.Errorf("top-level keys\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

// topKeys lists a JSON object's own keys in the order written.
func topKeys(t *testing.T, b []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil { // {
		t.Fatal(err)
	}
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}
