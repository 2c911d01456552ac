package run

import "fmt"

// Phase is one step of a run. A run goes through the phases in the order
// of their values, each once: Open enters Connect, Setup and Seed (once
// per session), Session.Run the others (once per measured run, so a sweep
// or a battery goes through them once per step, on one connection). The
// server's context is read after seeding, so that the collections'
// statistics "before" see the seeded documents.
type Phase int

// The phases, in the order a run enters them.
const (
	PhaseConnect Phase = iota // connect to the server
	PhaseSetup                // create collections and indexes
	PhaseSeed                 // seed them
	PhaseContext              // read the server's context; open the sinks
	PhaseWarmup               // the engine starts (the warm-up, if any, runs first)
	PhaseMeasure              // the measured phase starts (on the engine's collecting goroutine)
	PhaseCollect              // the engine returned: stop what runs, build the result
	PhaseExplain              // explain the slow shapes, collections' statistics after the run
	PhaseWrite                // close the sinks, write the results file, save the keys
)

// Phases is the order of a run's phases.
var Phases = []Phase{PhaseConnect, PhaseSetup, PhaseSeed, PhaseContext, PhaseWarmup, PhaseMeasure, PhaseCollect, PhaseExplain, PhaseWrite}

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

// phases tracks the phases entered, so that none is entered out of turn.
type phases struct {
	last    Phase // -1 before the first
	onPhase func(Phase)
}

// enter says phase p begins. Phases are entered in run order, each at most
// once: anything else is a bug in the run, and panics.
func (ps *phases) enter(p Phase) {
	if p <= ps.last {
		panic(fmt.Sprintf("run: phase %s entered after %s", p, ps.last))
	}
	ps.last = p
	if ps.onPhase != nil {
		ps.onPhase(p)
	}
}
