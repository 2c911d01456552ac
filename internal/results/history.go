package results

import "time"

// HistorySchema identifies `mongoload history --format json`.
const HistorySchema = "mongoload.history/v1"

// History is a store's results over time (internal/history made it):
// per workload, each metric's series and the change points found in it.
type History struct {
	Schema    string            `json:"schema"`
	Store     string            `json:"store"` // password removed
	Method    HistoryMethod     `json:"method"`
	Workloads []HistoryWorkload `json:"workloads"`
	// Skipped are the store's entries left out as damaged, each with why
	// (a run killed while writing it): the rest is analysed.
	Skipped []string `json:"skipped,omitempty"`
}

// HistoryMethod is how the change points were found.
type HistoryMethod struct {
	Name         string  `json:"name"` // "e-divisive means"
	PValue       float64 `json:"pValue"`
	Permutations int     `json:"permutations"`
	Seed         uint64  `json:"seed"`
	// Threshold is the smallest change, as a share (0.05), that counts as
	// a regression for --fail-on-regression.
	Threshold float64 `json:"threshold"`
}

// HistoryWorkload is one workload's runs in time order and its series.
type HistoryWorkload struct {
	Name   string          `json:"name"`
	Runs   []HistoryRun    `json:"runs"`
	Series []HistorySeries `json:"series"`
}

// HistoryRun is one stored result.
type HistoryRun struct {
	Time    time.Time `json:"time"`
	Label   string    `json:"label,omitempty"`
	Host    string    `json:"host,omitempty"`
	Version string    `json:"version,omitempty"`
	Digest  string    `json:"digest"`
	Schema  string    `json:"schema"`
}

// HistorySeries is one metric over the runs: Values[i] is Runs[i]'s, nil
// where that run did not measure it.
type HistorySeries struct {
	Metric         string        `json:"metric"`
	Unit           string        `json:"unit"`
	HigherIsBetter bool          `json:"higherIsBetter"`
	Values         []*float64    `json:"values"`
	ChangePoints   []ChangePoint `json:"changePoints"`
	TooFew         bool          `json:"tooFew,omitempty"` // fewer values than a change point needs
	Regressed      bool          `json:"regressed"`        // the latest change point is a regression beyond the threshold
}

// ChangePoint is where a series changed: Run indexes the workload's Runs
// (the first run after the change; Label is its label), Change is
// (MeanAfter - MeanBefore) / MeanBefore in percent, the means over the
// segments either side up to the neighbouring change points.
type ChangePoint struct {
	Run        int       `json:"run"`
	Label      string    `json:"label,omitempty"`
	Time       time.Time `json:"time"`
	Change     float64   `json:"changePercent"`
	PValue     float64   `json:"pValue"`
	MeanBefore float64   `json:"meanBefore"`
	MeanAfter  float64   `json:"meanAfter"`
	Regression bool      `json:"regression"` // worse by more than the threshold
}

// Measured is how many runs measured the series' metric.
func (s *HistorySeries) Measured() int {
	n := 0
	for _, v := range s.Values {
		if v != nil {
			n++
		}
	}
	return n
}
