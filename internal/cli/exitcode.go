package cli

import (
	"errors"

	"github.com/mongoload/mongoload/internal/capacity"
	"github.com/mongoload/mongoload/internal/capture"
	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/run"
)

// Exit codes. Each kind of failure has its own, so scripts can tell them
// apart; docs/exit-codes.md lists them for users.
const (
	ExitOK            = 0
	ExitInternal      = 1  // a bug or an unexpected failure
	ExitUsage         = 2  // bad command line
	ExitUnreadable    = 3  // the workload file cannot be read
	ExitSyntax        = 10 // malformed YAML/JSON
	ExitUnknownKey    = 11 // a key the configuration does not have
	ExitInvalid       = 12 // a value out of range or inconsistent (weights, ...)
	ExitUnknownGen    = 13 // a template names an unknown generator
	ExitUnknownOp     = 14 // an unknown operation type
	ExitBadURI        = 15 // the connection URI cannot be parsed
	ExitUnreachable   = 16 // no server answered within the timeout
	ExitAuth          = 17 // the server refused the credentials
	ExitOutput        = 18 // an output file cannot be written
	ExitSetup         = 19 // setup refused by mongoload: a collection it did not create, a conflicting load
	ExitInterrupted   = 20 // Ctrl-C: results so far were reported and written
	ExitServerLost    = 21 // the server went away: results so far were reported and written
	ExitServerFailure = 22 // the server failed a setup command (an index, a collection), seeding or loading
	ExitInvariant     = 23 // verify: an invariant of the workload does not hold
	ExitNothing       = 24 // compare, report, merge: an input that measured nothing
	ExitNoise         = 25 // findmax, sweep: the answer is unreliable (noise on the host, probes that disagree) without --accept-noise
	ExitSLA           = 30 // the run (or too many runs of the battery) missed its SLO
	ExitNoRate        = 31 // findmax: no rate probed met the SLO, not even the lowest
	ExitNoServerCPU   = 32 // --target-server-cpu: the server's CPU cannot be measured
	ExitUnsupported   = 29 // the server lacks what the workload declares: time-series collections, change streams
	ExitRegression    = 26 // ab: an operation regressed beyond the threshold on the candidate; history --fail-on-regression
	ExitResultsDiffer = 27 // ab: verified operations returned different results (or the sides' data differ)
	ExitProtected     = 28 // capture: the profiler cost the source more than --max-impact: restored, the window ended early
	// ExitAbandoned: a second Ctrl-C while the results were being
	// written; they may be missing (128 + SIGINT, as a shell reports it).
	ExitAbandoned = 130
)

var configExit = map[config.Kind]int{
	config.Syntax:           ExitSyntax,
	config.UnknownKey:       ExitUnknownKey,
	config.Invalid:          ExitInvalid,
	config.UnknownGenerator: ExitUnknownGen,
	config.UnknownOperation: ExitUnknownOp,
	config.BadURI:           ExitBadURI,
	config.Unreadable:       ExitUnreadable,
	config.Usage:            ExitUsage,
}

var runExit = map[run.Kind]int{
	run.Interrupted:   ExitInterrupted,
	run.ServerLost:    ExitServerLost,
	run.Unreachable:   ExitUnreachable,
	run.Auth:          ExitAuth,
	run.Refused:       ExitSetup,
	run.ServerFailure: ExitServerFailure,
	run.Output:        ExitOutput,
	run.Usage:         ExitUsage,
	run.SLAMissed:     ExitSLA,
	run.NoServerCPU:   ExitNoServerCPU,
	run.Unsupported:   ExitUnsupported,
}

// exitError carries the exit code a failure ends the process with.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func withCode(code int, err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: code, err: err}
}

// exitCode finds the code for err: its own, a run's or a configuration
// problem's, or 1.
func exitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	if _, protected := errors.AsType[*capture.ProtectedError](err); protected {
		return ExitProtected
	}
	if _, bug := errors.AsType[*capacity.AnalysisError](err); bug {
		return ExitInternal // what was measured could not be analysed
	}
	if kind, ok := run.KindOf(err); ok {
		return runExit[kind]
	}
	if kind, ok := config.KindOf(err); ok {
		return configExit[kind]
	}
	if errors.Is(err, results.ErrNothingMeasured) {
		return ExitNothing
	}
	return ExitInternal
}

// readExit is the code of a failure to read an input of compare, report
// or merge: one that measured nothing has its own, as has malformed JSON.
func readExit(err error) int {
	if errors.Is(err, results.ErrNothingMeasured) {
		return ExitNothing
	}
	if errors.Is(err, results.ErrMalformed) {
		return ExitSyntax // truncated or not JSON at all: malformed, as docs/exit-codes.md says
	}
	return ExitUnreadable
}
