package results

import "encoding/json"

// Cost is what the system under test costs per month, as the user said
// (--monthly-cost 797.76 --currency EUR), for throughput per cost.
type Cost struct {
	Monthly  float64 `json:"monthly"`
	Currency string  `json:"currency,omitempty"`
}

// CostOf is res's cost: its cost field, else the run configuration's
// monthlyCost and currency (a run records its configuration), else nil.
func CostOf(res *Result) *Cost {
	if res == nil {
		return nil
	}
	if res.Cost != nil {
		return res.Cost
	}
	var cfg struct {
		Run struct {
			MonthlyCost float64 `json:"monthlyCost"`
			Currency    string  `json:"currency"`
		} `json:"run"`
	}
	if len(res.Config) == 0 || json.Unmarshal(res.Config, &cfg) != nil || cfg.Run.MonthlyCost <= 0 {
		return nil
	}
	return &Cost{Monthly: cfg.Run.MonthlyCost, Currency: cfg.Run.Currency}
}
