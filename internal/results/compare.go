package results

// Comparison is several runs or sweeps side by side, as
// analysis.Compare makes it: one row per metric, one value per input and
// the change against the baseline input.
type Comparison struct {
	Inputs   []ComparedInput `json:"inputs"`
	Baseline int             `json:"baseline"` // index into Inputs
	// At describes the load at which the latency rows were taken, such as
	// "at 64 workers, the highest load every input ran".
	At         string            `json:"at"`
	Rows       []ComparisonRow   `json:"rows"`
	Objectives []ObjectiveResult `json:"objectives,omitempty"`
	Notes      []string          `json:"notes,omitempty"`
	// Users is set by compare --users: capacities in users, growth stages.
	Users *UserPlan `json:"users,omitempty"`
}

// ComparedInput is one compared file.
type ComparedInput struct {
	Label string `json:"label"`
	File  string `json:"file"`
	Kind  string `json:"kind"` // "results" or "sweep"
	Cost  *Cost  `json:"cost,omitempty"`
	// MeetsAll is set when objectives were given: whether this input met
	// every one (the baseline is not judged).
	MeetsAll *bool `json:"meetsAll,omitempty"`
}

// ComparisonRow is one metric. Values and Change have one entry per
// input; nil where the input has no such figure (a results file has no
// saturation point), and Change is nil for the baseline.
type ComparisonRow struct {
	Metric string     `json:"metric"` // for people: "max throughput (ops/s)"
	Key    string     `json:"key"`    // for objectives: "throughput", "read.p95", ...
	Unit   string     `json:"unit"`   // "ops/s", "ms", "%", a level's unit, a currency
	Values []*float64 `json:"values"`
	Change []*float64 `json:"change"` // percent against the baseline
	// HigherIsBetter says which way is an improvement.
	HigherIsBetter bool `json:"higherIsBetter"`
}

// ObjectiveResult is one objective checked against every input but the
// baseline; Pass[i] is nil for the baseline and for an input without the
// figure.
type ObjectiveResult struct {
	Text string  `json:"text"`
	Pass []*bool `json:"pass"`
}

// MeetingAll is the labels of the inputs that met every objective, the
// baseline (never judged) left out.
func (c *Comparison) MeetingAll() []string {
	var meet []string
	for i, in := range c.Inputs {
		if i != c.Baseline && in.MeetsAll != nil && *in.MeetsAll {
			meet = append(meet, in.Label)
		}
	}
	return meet
}
