package results

import "time"

// FileHead opens a sweep file and a findmax file alike: the schema, the
// tool and the workload. Embedded, its fields are written in its place,
// so both files keep their field order.
type FileHead struct {
	Schema   string   `json:"schema"`
	Tool     Tool     `json:"tool"`
	Label    string   `json:"label,omitempty"`
	Cost     *Cost    `json:"cost,omitempty"`
	Workload Workload `json:"workload"`
}

// StepSpan is the timing and outcome a sweep and a findmax share.
// StepSeconds is the planned measured length of a step (a probe);
// WarmupSeconds ran before each step's measurement; CooldownSeconds
// between steps. Outcome is Completed when every step ran; Interrupted,
// ServerLost or Failed (a step could not start) when the run stopped
// early: the steps then are those that ran.
type StepSpan struct {
	StepSeconds     float64   `json:"stepSeconds"`
	WarmupSeconds   float64   `json:"warmupSeconds"`
	CooldownSeconds float64   `json:"cooldownSeconds"`
	StartedAt       time.Time `json:"startedAt"`
	EndedAt         time.Time `json:"endedAt"`
	Outcome         Outcome   `json:"outcome"`
	Reason          string    `json:"reason,omitempty"`
	Notes           []string  `json:"notes,omitempty"`
}
