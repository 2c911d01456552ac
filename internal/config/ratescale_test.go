package config

import (
	"strings"
	"testing"
	"time"
)

// TestRateScalePrecedence: --rate-scale multiplies the rate that results
// from the layers (file < environment < flags), whichever set it, once;
// the oracle is the arithmetic applied by hand to each case.
func TestRateScalePrecedence(t *testing.T) {
	const file = `
collections: [{database: db, name: c, template: {a: 1}}]
operations: [{name: get, type: findOne, weight: 1, filter: {a: 1}}]
run: {rate: 100, rateScale: 2, stages: [{duration: 1s, target: 50}]}
`
	tests := []struct {
		name        string
		env         map[string]string
		flags       map[string]string
		rate, stage float64
	}{
		{"the file's scale of the file's rate", nil, nil, 200, 100},
		{"the environment's scale over the file's", map[string]string{"MONGOLOAD_RATE_SCALE": "3"}, nil, 300, 150},
		{"the flag's over the environment's", map[string]string{"MONGOLOAD_RATE_SCALE": "3"}, map[string]string{"rate-scale": "0.5"}, 50, 25},
		{"a flag's rate, scaled", nil, map[string]string{"rate": "40"}, 80, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Parse([]byte(file), "w.yaml")
			if err != nil {
				t.Fatal(err)
			}
			if err := ApplyEnv(cfg, func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok }); err != nil {
				t.Fatal(err)
			}
			for f, v := range tt.flags {
				if err := setting(t, f).Set(cfg, v); err != nil {
					t.Fatal(err)
				}
			}
			if es := cfg.Validate(); len(es) > 0 {
				t.Fatal(es)
			}
			cfg.Run.ApplyRateScale()
			cfg.Run.ApplyRateScale() // spent: a second call changes nothing
			if cfg.Run.Rate != tt.rate || cfg.Run.Stages[0].Target != tt.stage {
				t.Errorf("rate %g, stage %g; want %g and %g", cfg.Run.Rate, cfg.Run.Stages[0].Target, tt.rate, tt.stage)
			}
		})
	}
}

// TestRateScaleNeedsARate: scaling a closed-loop workload is refused with
// what to do.
func TestRateScaleNeedsARate(t *testing.T) {
	cfg := Default()
	cfg.Collections = []Collection{{Database: "db", Name: "c"}}
	cfg.Run.RateScale = 3
	es := cfg.Validate()
	if len(es) == 0 || !strings.Contains(es.Error(), "rateScale multiplies a rate and the workload has none") || !strings.Contains(es.Error(), "--rate") {
		t.Errorf("errors %v", es)
	}
	if err := setting(t, "rate-scale").Set(cfg, "0"); err == nil {
		t.Error("--rate-scale 0 accepted")
	}
}

// TestRateRescalesARepeatedCurve: --rate N on a captured curve (repeated
// stages whose mean is the rate) moves the curve's mean to N, bursts kept;
// --stages replaces the curve and its repetition.
func TestRateRescalesARepeatedCurve(t *testing.T) {
	r := Run{Rate: 100, RepeatStages: true, Stages: Stages{{Duration: Duration(time.Second), Target: 50}, {Duration: Duration(time.Second), Target: 150}}}
	r.SetRate(300)
	if r.Rate != 300 || r.Stages[0].Target != 150 || r.Stages[1].Target != 450 {
		t.Errorf("rate %g, stages %v; want 300 and 150, 450", r.Rate, r.Stages)
	}
	plain := Run{Rate: 100, Stages: Stages{{Duration: Duration(time.Second), Target: 50}}}
	plain.SetRate(300)
	if plain.Stages[0].Target != 50 {
		t.Errorf("hand-written stages rescaled by --rate: %v", plain.Stages)
	}
}
