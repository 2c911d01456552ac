package analysis

import (
	"fmt"
	"math"
	"strings"

	"github.com/mongoload/mongoload/internal/results"
)

// UserOptions ask a comparison for capacities in users: Users is what the
// baseline serves, Growth the stages to plan for (each above Users),
// Headroom the spare share a stage needs.
type UserOptions struct {
	Users    float64
	Growth   []float64
	Headroom float64
}

// PlanUsers turns a comparison's throughputs into users. The baseline's
// throughput X0 (at its calibration point if it has one, else its max
// throughput) serves Users, so an input of throughput X carries
// Users x X / X0 users. Each stage, the current users first, then every
// growth stage, gets the cheapest input whose capacity is at least the
// stage x (1 + Headroom) and that met every objective (when objectives
// were given; the baseline is never judged); inputs without a cost rank
// after those with one, the smaller capacity first. It adds the rows
// "users" and "cost-per-1000-users" (cost per month per 1,000 users the
// input carries) and c.Users.
func PlanUsers(c *results.Comparison, inputs []CompareInput, o UserOptions) error {
	if err := o.validate(); err != nil {
		return err
	}
	base := c.Baseline
	x0, basis := capacityThroughput(inputs[base])
	if x0 == nil || *x0 <= 0 {
		return fmt.Errorf("--users %s: the baseline %s has no throughput to serve them with (a failed run, or a findmax that found no rate); choose another with --baseline", results.Target(o.Users), c.Inputs[base].Label)
	}
	currency, err := oneCurrency(c)
	if err != nil {
		return err
	}
	p := &results.UserPlan{Users: o.Users, Headroom: o.Headroom, Basis: basis, BaseThroughput: *x0, Currency: currency,
		Capacity: make([]*float64, len(inputs))}
	users := results.ComparisonRow{Metric: fmt.Sprintf("users (the baseline's %s serves %s)", basis, results.Target(o.Users)),
		Key: "users", Unit: "users", HigherIsBetter: true, Values: make([]*float64, len(inputs))}
	per := results.ComparisonRow{Metric: strings.TrimSpace("cost per 1,000 users per month " + currency), Key: "cost-per-1000-users",
		Unit: currency, Values: make([]*float64, len(inputs))}
	for i, in := range inputs {
		x, _ := capacityThroughput(in)
		if x == nil {
			continue
		}
		u := o.Users * *x / *x0
		p.Capacity[i], users.Values[i] = ptr(u), ptr(round3(u))
		if cost := c.Inputs[i].Cost; cost != nil && cost.Monthly > 0 && u > 0 {
			per.Values[i] = ptr(round3(cost.Monthly / (u / 1000)))
		}
	}
	for _, in := range inputs {
		var r *bool
		if in.Sweep != nil {
			r = in.Sweep.Reliable
		}
		p.Reliable = append(p.Reliable, r)
	}
	for _, stage := range append([]float64{o.Users}, o.Growth...) {
		st := chooseStage(c, p, stage)
		if st.Input == nil {
			if st.Extrapolated = extrapolate(c, p, inputs, stage*(1+p.Headroom)); st.Extrapolated != nil {
				st.Note += extrapolationNote(st.Extrapolated)
			}
		}
		if st.Input != nil {
			st.Reliable = p.Reliable[*st.Input]
		}
		p.Stages = append(p.Stages, st)
	}
	carryReliability(c, p, inputs)
	rows := []results.ComparisonRow{users}
	if currency != "" || anyCost(c) {
		rows = append(rows, per)
	}
	for i := range rows {
		rows[i].Change = changes(rows[i].Values, base)
	}
	c.Rows = append(c.Rows, rows...)
	c.Users = p
	return nil
}

func (o UserOptions) validate() error {
	if o.Users <= 0 || math.IsInf(o.Users, 0) || math.IsNaN(o.Users) {
		return fmt.Errorf("--users %g: give the number of users the baseline serves, such as 25000", o.Users)
	}
	if o.Headroom < 0 || o.Headroom >= 1 {
		return fmt.Errorf("--headroom %g%%: give a share of spare capacity from 0%% to below 100%%, such as 20%%", 100*o.Headroom)
	}
	last := o.Users
	for _, g := range o.Growth {
		if g <= o.Users {
			return fmt.Errorf("--growth %s: a growth stage must be above the %s users the baseline serves (--users)", results.Target(g), results.Target(o.Users))
		}
		if g <= last {
			return fmt.Errorf("--growth: the stages must increase, %s follows %s", results.Target(g), results.Target(last))
		}
		last = g
	}
	return nil
}

// capacityThroughput is the throughput an input's capacity is measured
// by: its calibration point's if it has one, else its max throughput
// (a findmax's: the highest rate meeting its SLO, as achieved).
func capacityThroughput(in CompareInput) (*float64, string) {
	if in.Sweep != nil && in.Sweep.Calibration != nil {
		return ptr(in.Sweep.Calibration.Throughput), "calibration point"
	}
	if in.Sweep != nil && in.Sweep.FindMax != nil {
		return maxThroughput(in), "highest rate meeting its SLO"
	}
	return maxThroughput(in), "max throughput"
}

// oneCurrency is the currency of the inputs' costs; costs in several is
// an error, as users per money cannot be compared across them.
func oneCurrency(c *results.Comparison) (string, error) {
	cur, label := "", ""
	for _, in := range c.Inputs {
		if in.Cost == nil || in.Cost.Monthly <= 0 {
			continue
		}
		if label != "" && in.Cost.Currency != cur {
			return "", fmt.Errorf("--users: costs in mixed currencies, %s in %q and %s in %q: give every --monthly-cost in one --currency", label, cur, in.Label, in.Cost.Currency)
		}
		if label == "" {
			cur, label = in.Cost.Currency, in.Label
		}
	}
	return cur, nil
}

func anyCost(c *results.Comparison) bool {
	for _, in := range c.Inputs {
		if in.Cost != nil && in.Cost.Monthly > 0 {
			return true
		}
	}
	return false
}

// chooseStage picks the cheapest input carrying stage users.
func chooseStage(c *results.Comparison, p *results.UserPlan, stage float64) results.GrowthStage {
	need := stage * (1 + p.Headroom)
	st := results.GrowthStage{Users: stage}
	best := -1
	for i, in := range c.Inputs {
		u := p.Capacity[i]
		if u == nil || *u < need || (i != c.Baseline && in.MeetsAll != nil && !*in.MeetsAll) {
			continue
		}
		if best < 0 || cheaper(c, p, i, best) {
			best = i
		}
	}
	if best < 0 {
		st.Note = fmt.Sprintf("no input carries %s users with %.0f%% headroom (%s needed)", results.Target(stage), 100*p.Headroom, results.Target(math.Ceil(need)))
		if len(c.Objectives) > 0 {
			st.Note += " and meets every objective"
		}
		return st
	}
	st.Choice, st.Input, st.Capacity = c.Inputs[best].Label, &best, *p.Capacity[best]
	if cost := c.Inputs[best].Cost; cost != nil && cost.Monthly > 0 {
		st.Monthly = ptr(cost.Monthly)
		st.PerThousand = ptr(round3(cost.Monthly / (stage / 1000)))
	}
	return st
}

// cheaper says whether input i ranks before input j: a cost before none,
// the lower cost, then the smaller capacity (the closer fit).
func cheaper(c *results.Comparison, p *results.UserPlan, i, j int) bool {
	ci, cj := monthly(c.Inputs[i]), monthly(c.Inputs[j])
	if ci != cj {
		return ci < cj
	}
	return *p.Capacity[i] < *p.Capacity[j]
}

func monthly(in results.ComparedInput) float64 {
	if in.Cost == nil || in.Cost.Monthly <= 0 {
		return math.Inf(1)
	}
	return in.Cost.Monthly
}

// carryReliability sets the plan's overall reliability: an unreliable
// baseline makes every capacity in users unreliable, an unreliable chosen
// input its stage's.
func carryReliability(c *results.Comparison, p *results.UserPlan, inputs []CompareInput) {
	var why []string
	say := func(i int, role string) {
		if r := p.Reliable[i]; r != nil && !*r {
			w := role + " " + c.Inputs[i].Label + "'s answer is unreliable"
			if sw := inputs[i].Sweep; sw != nil && sw.ReliableWhy != "" {
				w += " (" + strings.TrimSuffix(strings.TrimPrefix(sw.ReliableWhy, "Unreliable: "), ".") + ")"
			}
			for _, s := range why {
				if s == w {
					return
				}
			}
			why = append(why, w)
		}
	}
	say(c.Baseline, "the baseline")
	for _, st := range p.Stages {
		if st.Input != nil && *st.Input != c.Baseline {
			say(*st.Input, "the chosen")
		}
	}
	known := false
	for _, r := range p.Reliable {
		known = known || r != nil
	}
	if !known {
		return
	}
	ok := len(why) == 0
	p.Overall = &ok
	if !ok {
		p.ReliableWhy = "Unreliable: " + strings.Join(why, "; ") + "."
	}
}
