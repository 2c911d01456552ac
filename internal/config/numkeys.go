package config

import "fmt"

// checkNumbers applies the rule of number.go to every numeric key of the
// configuration, after the environment and the flags were layered on the
// file, so a refusal names whichever set the value (blame): "--rate",
// "MONGOLOAD_RATE" or "w.yaml: run.rate". A key whose 0 means "not set"
// (rateScale, seedScale, emptyThreshold) is checked when it is set.
func (c *Config) checkNumbers(add adder) {
	r := &c.Run
	check := func(key string, line int, v float64, rg Range) bool {
		if err := rg.Check(v); err != nil {
			add(Invalid, line, key, "%v", err)
			return false
		}
		return true
	}
	cn := &c.Connection
	check("connection.maxPoolSize", 0, float64(cn.MaxPoolSize), PoolRange)
	check("connection.minPoolSize", 0, float64(cn.MinPoolSize), PoolRange)
	check("run.concurrency", 0, float64(r.Concurrency), ConcurrencyRange)
	check("run.operations", 0, float64(r.Operations), CountRange)
	check("run.seed", 0, float64(r.Seed), CountRange)
	check("run.seedBatchSize", 0, float64(r.SeedBatchSize), BatchRange)
	check("run.seedWorkers", 0, float64(r.SeedWorkers), WorkersRange)
	check("run.maxInFlight", 0, float64(r.MaxInFlight), WorkersRange)
	check("run.sessions", 0, float64(r.Sessions), WorkersRange)
	check("run.repeat", 0, float64(r.Repeat), RunsRange)
	check("run.passQuorum", 0, float64(r.PassQuorum), RunsRange)
	check("run.explain", 0, float64(r.Explain), ExplainRange)
	check("run.monthlyCost", 0, r.MonthlyCost, MoneyRange)
	if r.EmptyThreshold != 0 {
		check("run.emptyThreshold", 0, r.EmptyThreshold, ShareRange)
	}
	rate := check("run.rate", 0, r.Rate, RateRange)
	if r.RateScale != 0 && check("run.rateScale", 0, r.RateScale, FactorRange) && rate {
		check("run.rateScale", 0, r.Rate*r.RateScale, Range{Max: MaxRate, What: "a scaled rate (rate times rateScale) in operations per second"})
	}
	if r.SeedScale != 0 {
		check("run.seedScale", 0, r.SeedScale, FactorRange)
	}
	closed := r.Rate == 0 && r.Sessions == 0
	for i, st := range r.Stages {
		rg := RateRange
		if closed {
			rg = WorkersRange
		}
		check(fmt.Sprintf("run.stages[%d]", i), 0, st.Target, rg) // blamed on --stages when it set them
	}
	for i := range c.Collections {
		col := &c.Collections[i]
		check(fmt.Sprintf("collections[%d].seed", i), col.Line, float64(col.Seed), CountRange)
	}
	for i := range c.Operations {
		op := &c.Operations[i]
		check(fmt.Sprintf("operations[%d].weight", i), op.Line, op.Weight, WeightRange)
		check(fmt.Sprintf("operations[%d].batchSize", i), op.Line, float64(op.BatchSize), Range{Max: BatchRange.Max, Whole: true, What: BatchRange.What})
	}
}
