package config

import (
	"fmt"
	"strings"
	"time"
)

// Fault is one entry of a run's fault schedule: an action mongoload takes
// against the server at a time of the measured phase, to measure how the
// workload rides through it (docs/reliability.md).
type Fault struct {
	At     time.Duration // from the start of the measured phase
	Action string        // FaultStepDown
	// For is how long a stepped-down primary stays ineligible (replSetStepDown's seconds).
	For time.Duration
}

// FaultStepDown asks the replica set's primary to step down.
const FaultStepDown = "stepdown"

// DefaultStepDownFor is replSetStepDown's stepDownSecs when none is given.
const DefaultStepDownFor = 10 * time.Second

// ParseFault reads "at DURATION: stepdown [FOR]", such as "at 30s: stepdown"
// or "at 1m: stepdown 20s".
func ParseFault(s string) (Fault, error) {
	bad := func(why string) (Fault, error) {
		return Fault{}, fmt.Errorf("fault %q: %s; write it as \"at 30s: stepdown\" (or \"at 30s: stepdown 20s\" to keep the old primary ineligible for 20s)", s, why)
	}
	rest, ok := strings.CutPrefix(strings.TrimSpace(s), "at ")
	if !ok {
		return bad("it must start with \"at\"")
	}
	when, what, ok := strings.Cut(rest, ":")
	if !ok {
		return bad("no \":\" between the time and the action")
	}
	at, err := time.ParseDuration(strings.TrimSpace(when))
	if err != nil || at < 0 {
		return bad(fmt.Sprintf("%q is not a duration such as 30s", strings.TrimSpace(when)))
	}
	words := strings.Fields(what)
	if len(words) == 0 || words[0] != FaultStepDown {
		return bad("the only action is stepdown")
	}
	f := Fault{At: at, Action: FaultStepDown, For: DefaultStepDownFor}
	switch len(words) {
	case 1:
	case 2:
		d, err := time.ParseDuration(words[1])
		if err != nil || d < time.Second {
			return bad(fmt.Sprintf("%q is not a duration of at least 1s", words[1]))
		}
		f.For = d
	default:
		return bad("too many words after stepdown")
	}
	return f, nil
}

// String writes f back in the form ParseFault reads.
func (f Fault) String() string {
	return fmt.Sprintf("at %s: %s %s", f.At, f.Action, f.For)
}
