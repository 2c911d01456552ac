package config

import (
	"strings"
	"testing"
)

const seeded = `
collections:
  - {database: db, name: cards, seed: 1000000, template: {a: 1}}
  - {database: db, name: merchants, seed: 5000, template: {a: 1}}
  - {database: db, name: ledger, template: {a: 1}}
operations:
  - {name: get, type: findOne, weight: 1, collection: cards, filter: {a: 1}}
run: {seed: 7}
`

// TestSeedPrecedence: a seed count set by the environment or a flag wins
// over the workload file's, per-collection counts included (flags >
// environment > file > defaults). The oracle is the rule itself, applied by
// hand to each case: the counts each collection ends with.
func TestSeedPrecedence(t *testing.T) {
	tests := []struct {
		name string
		env  string // MONGOLOAD_SEED, "" for none
		flag string // --seed, "" for none
		want []int64
	}{
		// The file alone: per-collection counts, run.seed for the rest.
		{"file", "", "", []int64{1000000, 5000, 7}},
		// --seed N replaces every count (mongoload run payments --seed 5000).
		{"flag", "", "5000", []int64{5000, 5000, 5000}},
		// The environment is above the file too.
		{"env", "300", "", []int64{300, 300, 300}},
		// And a flag above the environment.
		{"flag over env", "300", "40", []int64{40, 40, 40}},
		// NAME=N sets only the named collections (the payments ledger's history).
		{"named", "", "ledger=100", []int64{1000000, 5000, 100}},
		{"namespace", "", "db.cards=10,merchants=2", []int64{10, 2, 7}},
		// A flag naming collections leaves what the environment set elsewhere.
		{"env then named flag", "300", "cards=1", []int64{1, 300, 300}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Parse([]byte(seeded), "w.yaml")
			if err != nil {
				t.Fatal(err)
			}
			if err := ApplyEnv(cfg, func(k string) (string, bool) {
				return tt.env, k == "MONGOLOAD_SEED" && tt.env != ""
			}); err != nil {
				t.Fatal(err)
			}
			if tt.flag != "" {
				if err := setting(t, "seed").Set(cfg, tt.flag); err != nil {
					t.Fatal(err)
				}
			}
			for i, want := range tt.want {
				got := cfg.Collections[i].Seed
				if got == 0 {
					got = cfg.Run.Seed // a collection without its own count takes run.seed
				}
				if got != want {
					t.Errorf("%s: seed %d, want %d", cfg.Collections[i].Name, got, want)
				}
			}
		})
	}
}

func setting(t *testing.T, flag string) Setting {
	t.Helper()
	for _, s := range Settings {
		if s.Flag == flag {
			return s
		}
	}
	t.Fatalf("no setting %s", flag)
	return Setting{}
}

// TestSettingIntegers: a number past its range is called out of range
// with the bounds, a fraction not whole, NaN and the infinities not
// numbers; a word is not a number.
func TestSettingIntegers(t *testing.T) {
	tests := []struct {
		flag, value, want string
	}{
		{"seed", "99999999999999999999", `"99999999999999999999": 1e+20 is out of range: give a count from 0 to 1,000,000,000,000,000`},
		{"concurrency", "99999999999999999999", `is out of range`},
		{"max-pool-size", "99999999999999999999", `is out of range: give a number of connections from 0 to 1,000,000`},
		{"random-seed", "99999999999999999999", `is out of range: a seed is at most 18446744073709551615`},
		{"concurrency", "many", `"many" is not a number`},
		{"concurrency", "2.5", `2.5 is not a whole number`},
		{"concurrency", "NaN", `NaN is not a number`},
		{"operations", "-Inf", `-Inf is not finite`},
		{"max-pool-size", "-1", `"-1": -1 is out of range`},
		{"seed", "cards=0", `leave a collection out`},
		{"seed", "crads=5", `no collection "crads" (it has cards, merchants, ledger) (did you mean "cards"?)`},
	}
	for _, tt := range tests {
		cfg, err := Parse([]byte(seeded), "w.yaml")
		if err != nil {
			t.Fatal(err)
		}
		err = setting(t, tt.flag).Set(cfg, tt.value)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("--%s %s: %v, want %q", tt.flag, tt.value, err, tt.want)
		}
	}
	// The same in a workload file.
	_, err := Parse([]byte(base+"run: {concurrency: 99999999999999999999}\n"), "w.yaml")
	if err == nil || !strings.Contains(err.Error(), "out of range for a whole number from") || strings.Contains(err.Error(), "wrong type") {
		t.Errorf("file: %v", err)
	}
}

// TestMemoryPolicyPrecedence: the memory limit and GOGC follow flags >
// environment > file > sized, and in the environment mongoload's own
// variable wins over Go's (GOMEMLIMIT, GOGC), which a user who tuned the
// process's collector set. The oracle is the rule, applied by hand.
func TestMemoryPolicyPrecedence(t *testing.T) {
	tests := []struct {
		name       string
		file       string            // run: block of the file, "" for none
		env        map[string]string // the environment
		flag       string            // --memory-limit, "" for none
		wantLimit  string
		wantGOGC   string
		wantErrIn  string // the variable or field a bad value is reported against
		wantErrMsg string
	}{
		{name: "nothing: sized", wantLimit: "", wantGOGC: ""},
		{name: "file", file: "run: {concurrency: 1, duration: 1s, memoryLimit: 80MiB, gogc: 300}\n", wantLimit: "80MiB", wantGOGC: "300"},
		{name: "Go's variables over the file", file: "run: {concurrency: 1, duration: 1s, memoryLimit: 80MiB, gogc: 300}\n",
			env: map[string]string{"GOMEMLIMIT": "90MiB", "GOGC": "off"}, wantLimit: "90MiB", wantGOGC: "off"},
		{name: "mongoload's variable over Go's", env: map[string]string{"GOMEMLIMIT": "90MiB", "MONGOLOAD_MEMORY_LIMIT": "100MiB", "GOGC": "off", "MONGOLOAD_GOGC": "250"},
			wantLimit: "100MiB", wantGOGC: "250"},
		{name: "flag over all", env: map[string]string{"GOMEMLIMIT": "90MiB", "MONGOLOAD_MEMORY_LIMIT": "100MiB"}, flag: "off", wantLimit: "off"},
		{name: "bad GOMEMLIMIT named", env: map[string]string{"GOMEMLIMIT": "90MB"}, wantErrIn: "GOMEMLIMIT", wantErrMsg: "such as 96MiB"},
		{name: "bad MONGOLOAD_GOGC named", env: map[string]string{"MONGOLOAD_GOGC": "fast"}, wantErrIn: "MONGOLOAD_GOGC", wantErrMsg: "or off"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Parse([]byte(base+tt.file), "w.yaml")
			if err != nil {
				t.Fatal(err)
			}
			err = ApplyEnv(cfg, func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok })
			if tt.wantErrIn != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErrIn) || !strings.Contains(err.Error(), tt.wantErrMsg) {
					t.Fatalf("error %v, want one naming %s and %q", err, tt.wantErrIn, tt.wantErrMsg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.flag != "" {
				if err := setting(t, "memory-limit").Set(cfg, tt.flag); err != nil {
					t.Fatal(err)
				}
			}
			if cfg.Run.MemoryLimit != tt.wantLimit || cfg.Run.GOGC != tt.wantGOGC {
				t.Errorf("memoryLimit %q gogc %q, want %q %q", cfg.Run.MemoryLimit, cfg.Run.GOGC, tt.wantLimit, tt.wantGOGC)
			}
		})
	}
	// A bad value in the file is reported against its field.
	cfg, err := Parse([]byte(base+"run: {concurrency: 1, duration: 1s, memoryLimit: lots}\n"), "w.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if es := cfg.Validate(); len(es) == 0 || !strings.Contains(es[0].Error(), "run.memoryLimit") {
		t.Errorf("Validate: %v, want an error naming run.memoryLimit", es)
	}
}
