package workload

import (
	"errors"
	"fmt"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/generate"
)

// Abort is the error a transaction ends with when one of its steps' own
// conditions aborted it (abortIf: noMatch): a business outcome such as
// "insufficient funds", rolled back and counted, not a server error.
type Abort struct{ Reason string }

func (a *Abort) Error() string { return "aborted: " + a.Reason }

// AbortReason returns the reason when err is a workload's own abort.
func AbortReason(err error) (string, bool) {
	if err == nil {
		return "", false // errors.As would allocate its target on every success
	}
	var a *Abort
	if errors.As(err, &a) {
		return a.Reason, true
	}
	return "", false
}

// compileTransaction compiles a transaction into one operation of the mix
// per style, each with its own compiled steps, so one report compares the
// styles side by side (and their weights split the transaction's).
func compileTransaction(cfg *config.Config, oc *config.Operation, i int, p *Plan) ([]*Op, error) {
	field := fmt.Sprintf("operations[%d]", i)
	styles := oc.Styles
	if len(styles) == 0 {
		styles = []string{"perOperation"}
	}
	var ops []*Op
	for _, style := range styles {
		name := oc.Name
		if len(styles) > 1 {
			name += "." + style
		}
		op := &Op{
			Name: name, Type: "transaction", Kind: Transaction, Weight: oc.Weight / float64(len(styles)),
			Style: style, ReadConcern: oc.ReadConcern, MaxCommitTime: oc.MaxCommitTime.D(),
			ReadPreference: oc.ReadPreference, WriteConcern: oc.WriteConcern,
		}
		if op.WriteConcern == nil {
			op.WriteConcern = &config.WriteConcern{W: "majority"} // strict ACID unless told otherwise
		}
		let, err := compileLet(cfg, oc, p)
		if err != nil {
			return nil, locate(err, field+".let")
		}
		op.Let = let
		for j := range oc.Steps {
			sc := &oc.Steps[j]
			st, err := compileOpIn(cfg, sc, fmt.Sprintf("%s.steps[%d]", field, j), p, let.Names)
			if err != nil {
				return nil, err
			}
			st.Name = name + "/" + sc.Name
			st.Parent = op
			st.AbortIfNoMatch = sc.AbortIf == "noMatch"
			st.AbortReason = sc.AbortReason
			if st.AbortReason == "" {
				st.AbortReason = sc.Name + " matched nothing"
			}
			op.Steps = append(op.Steps, st)
			op.Collection = st.Collection // a transaction has no collection of its own; any step's does for setup
		}
		ops = append(ops, op)
	}
	return ops, nil
}

func compileLet(cfg *config.Config, oc *config.Operation, p *Plan) (*generate.Let, error) {
	lookup := func(name string) *generate.KeySpace {
		if c := p.collectionByRef(name); c != nil {
			return c.Keys
		}
		return nil
	}
	return generate.CompileLet(oc.Let, &generate.Env{Mode: generate.Query, Seed: cfg.Run.RandomSeed, KeySpace: lookup})
}
