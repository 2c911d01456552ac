package results

// UserPlan is a comparison in the user's terms (compare --users): the
// baseline's throughput serves Users, so every input's capacity is in
// users, and each growth stage gets the cheapest input that carries it.
type UserPlan struct {
	Users float64 `json:"users"`
	// Headroom is the share of spare capacity a stage needs (0..1): an
	// input carries S users when its capacity is at least S x (1+Headroom).
	Headroom float64 `json:"headroom"`
	// Basis says which throughput of the baseline serves Users: "its
	// calibration point" or "its max throughput"; BaseThroughput is it.
	Basis          string  `json:"basis"`
	BaseThroughput float64 `json:"baseThroughput"`
	// Capacity is each input's capacity in users, nil without a throughput.
	Capacity []*float64 `json:"capacity"`
	// Currency of the costs, "" for none.
	Currency string        `json:"currency,omitempty"`
	Stages   []GrowthStage `json:"stages"`
	// Reliable is each input's reliability as its findmax or sweep file
	// says (nil: a run, or a file from before it was assessed); Overall
	// is false when the baseline or a chosen input is unreliable, and
	// ReliableWhy says which and why.
	Reliable    []*bool `json:"reliable,omitempty"`
	Overall     *bool   `json:"overallReliable,omitempty"`
	ReliableWhy string  `json:"reliableWhy,omitempty"`
}

// GrowthStage is one number of users and the input chosen to carry it.
type GrowthStage struct {
	Users float64 `json:"users"`
	// Choice is the chosen input's label, "" when none carries the stage
	// (Note says why); Input its index.
	Choice string `json:"choice,omitempty"`
	Input  *int   `json:"input,omitempty"`
	// Capacity is the chosen input's capacity in users, Monthly its cost,
	// PerThousand its cost per 1,000 of the stage's users per month.
	Capacity    float64  `json:"capacity,omitempty"`
	Monthly     *float64 `json:"monthly,omitempty"`
	PerThousand *float64 `json:"perThousand,omitempty"`
	Note        string   `json:"note,omitempty"`
	// Extrapolated is, for a stage no input carries as measured, the
	// Universal Scalability Law of a concurrency sweep predicting it: the
	// workers at which the law carries the stage, and how far that is
	// beyond the sweep's largest level.
	Extrapolated *StageUSL `json:"extrapolated,omitempty"`
	// Reliable is the chosen input's reliability (Reliable of the plan).
	Reliable *bool `json:"reliable,omitempty"`
}

// StageUSL is a growth stage carried by a sweep's fitted law, not by a
// measurement.
type StageUSL struct {
	Input       string  `json:"input"`
	Concurrency float64 `json:"concurrency"`
	Throughput  float64 `json:"throughput"`
	Users       float64 `json:"users"`
	Beyond      float64 `json:"beyond"`              // Concurrency over the sweep's largest level
	FarBeyond   bool    `json:"farBeyond,omitempty"` // past 2.5x: to be measured before relied on
}
