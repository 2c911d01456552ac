package cli

import (
	"fmt"
	"slices"
)

// Phase is one step of a run. A run goes through the phases in the order
// of their values, each once: runPhases is that order, in one place.
//
// Connect, Setup and Seed happen once per command (connectPrepared); a
// sweep or a battery then goes through Context to Write once per measured
// step (measureStep), on the same connection. The server's context is read
// after seeding, so that the collections' statistics "before" see the
// seeded documents.
type Phase int

const (
	PhaseConnect Phase = iota // connect to the server
	PhaseSetup                // create collections and indexes
	PhaseSeed                 // seed them
	PhaseContext              // read the server's context; observers open their sinks
	PhaseWarmup               // hook into the engine before it starts (the warm-up, if any, runs first)
	PhaseMeasure              // the measured phase starts (the engine's OnPhase, on its collecting goroutine)
	PhaseCollect              // the engine returned: stop what runs, build the result, gather the observers' parts
	PhaseExplain              // explain the slow shapes, collections' statistics after the run
	PhaseWrite                // close the sinks (the results file), print the report
)

// runPhases is the order of a run's phases.
var runPhases = []Phase{PhaseConnect, PhaseSetup, PhaseSeed, PhaseContext, PhaseWarmup, PhaseMeasure, PhaseCollect, PhaseExplain, PhaseWrite}

var phaseNames = map[Phase]string{
	PhaseConnect: "connect", PhaseSetup: "setup", PhaseSeed: "seed", PhaseContext: "context", PhaseWarmup: "warm-up",
	PhaseMeasure: "measure", PhaseCollect: "collect", PhaseExplain: "explain", PhaseWrite: "write",
}

func (p Phase) String() string {
	if n, ok := phaseNames[p]; ok {
		return n
	}
	return fmt.Sprintf("phase(%d)", int(p))
}

// unwinds says whether the observers' hooks of phase p run in reverse
// order: up to Measure the observers start in the pipeline's order, after
// it they stop in the reverse order, as deferred calls do. What starts
// first therefore stops last: the operator reads the client's CPU before
// the telemetry sampler starts, and explains only after the sampler's final
// sample, so that its commands are not counted as the workload's.
func (p Phase) unwinds() bool { return p > PhaseMeasure }

// observer is one part of a measured step: it declares the phases it joins
// (in run order) and is entered at each of them. close releases what it
// holds, on every path, once the step is over.
type observer interface {
	phases() []Phase
	enter(p Phase, r *runState) error
	close()
}

// pipeline runs the observers of one measured step through its phases.
// The order of observers is the only ordering there is: each phase enters
// them in that order (or its reverse, see Phase.unwinds).
type pipeline struct {
	observers []observer
	last      Phase // the last phase entered; -1 before the first
}

func newPipeline(obs ...observer) *pipeline {
	return &pipeline{observers: obs, last: -1}
}

// order is the observers joining phase p, in the order their hooks run.
func (pl *pipeline) order(p Phase) []observer {
	var out []observer
	for _, ob := range pl.observers {
		if slices.Contains(ob.phases(), p) {
			out = append(out, ob)
		}
	}
	if p.unwinds() {
		slices.Reverse(out)
	}
	return out
}

// enter runs phase p's hooks. Phases are entered in run order, each at
// most once: anything else is a bug in the caller, and panics. The first
// hook that fails stops the phase.
func (pl *pipeline) enter(p Phase, r *runState) error {
	if p <= pl.last {
		panic(fmt.Sprintf("pipeline: phase %s entered after %s", p, pl.last))
	}
	pl.last = p
	for _, ob := range pl.order(p) {
		if err := ob.enter(p, r); err != nil {
			return err
		}
	}
	return nil
}

// close closes the observers, the last first, on every path.
func (pl *pipeline) close() {
	for i := len(pl.observers) - 1; i >= 0; i-- {
		pl.observers[i].close()
	}
}
