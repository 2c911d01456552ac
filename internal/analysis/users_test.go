package analysis

import (
	"math"
	"strings"
	"testing"

	"github.com/mongoload/mongoload/internal/results"
)

// TestPlanUsersSeed003 is the study seed 003 follows: the baseline
// m3-xlarge-8 serves 25,000 users, so every VM's capacity is in users, and
// each growth stage gets the cheapest VM carrying it with 20% headroom.
// The oracle is the arithmetic on the table's own throughputs and costs.
func TestPlanUsersSeed003(t *testing.T) {
	c, err := Compare(seed003Inputs(), 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := PlanUsers(c, seed003Inputs(), UserOptions{Users: 25000, Growth: []float64{50000, 90000}, Headroom: 0.2}); err != nil {
		t.Fatal(err)
	}
	users, per := findRow(c, "users"), findRow(c, "cost-per-1000-users")
	if users == nil || per == nil || per.Unit != "EUR" {
		t.Fatalf("rows users %v, cost-per-1000-users %v", users, per)
	}
	for i, v := range seed003 {
		want := 25000 * v.tput / seed003[0].tput
		if math.Abs(*users.Values[i]-want) > 0.001 {
			t.Errorf("%s: %v users, want %.3f", v.label, *users.Values[i], want)
		}
		if wantPer := v.cost / (want / 1000); math.Abs(*per.Values[i]-wantPer) > 0.001 {
			t.Errorf("%s: %v EUR per 1,000 users, want %.3f", v.label, *per.Values[i], wantPer)
		}
	}
	// The strongest VM, c4-2xlarge-4, carries 25,000 x 2314/650 = 89,000
	// users: the blog's "80,000-90,000".
	if u := *users.Values[5]; math.Round(u) != 89000 {
		t.Errorf("c4-2xlarge-4 carries %v users, want 89,000", u)
	}
	tests := []struct {
		users  float64
		choice string // "" for none
	}{
		{25000, "s3-2xlarge-8"}, // needs 30,000: s3-2xlarge-8 (62,500 for 1,180.08) is the cheapest above it
		{50000, "s3-2xlarge-8"}, // needs 60,000: still s3-2xlarge-8
		{90000, ""},             // needs 108,000: no VM carries it
	}
	p := c.Users
	if p == nil || len(p.Stages) != len(tests) || p.Basis != "max throughput" || p.BaseThroughput != 650 {
		t.Fatalf("plan %+v", p)
	}
	for i, tt := range tests {
		st := p.Stages[i]
		if st.Users != tt.users || st.Choice != tt.choice {
			t.Errorf("stage %v: chose %q, want %q (%s)", st.Users, st.Choice, tt.choice, st.Note)
		}
		if tt.choice == "" && !strings.Contains(st.Note, "no input carries 90,000 users with 20% headroom (108,000 needed)") {
			t.Errorf("stage %v: note %q", st.Users, st.Note)
		}
		if tt.choice != "" && math.Abs(*st.PerThousand-1180.08/(tt.users/1000)) > 0.001 {
			t.Errorf("stage %v: %v per 1,000 users", st.Users, *st.PerThousand)
		}
	}
}

// TestPlanUsersObjectives: a stage goes only to an input meeting every
// objective; without headroom the strongest VM carries 85,000.
func TestPlanUsersObjectives(t *testing.T) {
	o, err := ParseRelObjective("read.p95<=-50%") // only the three fast VMs
	if err != nil {
		t.Fatal(err)
	}
	c, err := Compare(seed003Inputs(), 0, []RelObjective{o})
	if err != nil {
		t.Fatal(err)
	}
	if err := PlanUsers(c, seed003Inputs(), UserOptions{Users: 25000, Growth: []float64{85000}}); err != nil {
		t.Fatal(err)
	}
	// 25,000 with no headroom: the baseline itself (797.76) is not cheaper
	// than c4-xlarge-4 (694.08), which carries only 23,462 and fails the
	// objective; s3-2xlarge-4 carries 26,269 but fails it too. So the
	// baseline, never judged, is the cheapest that carries it.
	if got := c.Users.Stages[0].Choice; got != "m3-xlarge-8" {
		t.Errorf("25,000 users: %q, want the baseline", got)
	}
	if got := c.Users.Stages[1].Choice; got != "c4-2xlarge-4" {
		t.Errorf("85,000 users: %q, want c4-2xlarge-4 (89,000)", got)
	}
}

// TestPlanUsersRefusals: bad input is one line naming the flag and the fix.
func TestPlanUsersRefusals(t *testing.T) {
	mixed := seed003Inputs()
	mixed[2].Result.Cost = &results.Cost{Monthly: 900, Currency: "USD"}
	zero := seed003Inputs()
	zero[0].Result.Totals.Throughput = 0
	tests := []struct {
		name   string
		inputs []CompareInput
		o      UserOptions
		want   string
	}{
		{"stage below the users", seed003Inputs(), UserOptions{Users: 25000, Growth: []float64{20000}}, "--growth 20,000: a growth stage must be above the 25,000 users"},
		{"stages not rising", seed003Inputs(), UserOptions{Users: 25000, Growth: []float64{60000, 50000}}, "the stages must increase"},
		{"no users", seed003Inputs(), UserOptions{Users: -1}, "--users -1"},
		{"mixed currencies", mixed, UserOptions{Users: 25000}, `costs in mixed currencies, m3-xlarge-8 in "EUR" and s3-2xlarge-4 in "USD"`},
		{"baseline without throughput", zero, UserOptions{Users: 25000}, "the baseline m3-xlarge-8 has no throughput to serve them with"},
		{"headroom", seed003Inputs(), UserOptions{Users: 25000, Headroom: 1}, "--headroom 100%"},
	}
	for _, tt := range tests {
		c, err := Compare(tt.inputs, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		err = PlanUsers(c, tt.inputs, tt.o)
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line containing %q", tt.name, err, tt.want)
		}
	}
}

// TestPlanUsersCarriesReliability: an unreliable baseline (a findmax or
// sweep whose answer other work on the host moved) makes the plan
// unreliable, says why, and marks the stages it chose.
func TestPlanUsersCarriesReliability(t *testing.T) {
	inputs := seed003Inputs()
	no := false
	sw := &results.Sweep{Load: results.SweepLoad{Type: results.Closed, Parameter: "concurrency", Levels: []float64{75}},
		Steps:    []results.SweepStep{{Level: 75, Complete: true, Result: inputs[0].Result}},
		Reliable: &no, ReliableWhy: "Unreliable: other work on this host used 40% of its CPU during step 1 (more than 10%). Run it again."}
	a, err := AnalyseSweep(sw, DefaultSweepOptions())
	if err != nil {
		t.Fatal(err)
	}
	sw.Analysis = a
	sw.Label = inputs[0].Result.Label
	inputs[0] = CompareInput{File: inputs[0].File, Sweep: sw}
	c, err := Compare(inputs, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := PlanUsers(c, inputs, UserOptions{Users: 25000, Growth: []float64{50000}, Headroom: 0.2}); err != nil {
		t.Fatal(err)
	}
	p := c.Users
	if p.Overall == nil || *p.Overall || !strings.Contains(p.ReliableWhy, "the baseline "+c.Inputs[0].Label+"'s answer is unreliable (other work on this host used 40% of its CPU during step 1") {
		t.Errorf("overall %v: %q", p.Overall, p.ReliableWhy)
	}
	if p.Reliable[0] == nil || *p.Reliable[0] || p.Reliable[1] != nil {
		t.Errorf("per input: %v", p.Reliable)
	}
	// Runs carry no assessment: a plan of runs alone says nothing of it.
	c2, _ := Compare(seed003Inputs(), 0, nil)
	if err := PlanUsers(c2, seed003Inputs(), UserOptions{Users: 25000}); err != nil || c2.Users.Overall != nil {
		t.Errorf("runs only: %v, overall %v", err, c2.Users.Overall)
	}
}
