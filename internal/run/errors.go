package run

import "errors"

// Kind says why a run failed, for the command's exit code: the run names
// the failure, the command line picks the number (docs/exit-codes.md).
type Kind int

// The kinds of failure a run reports.
const (
	Interrupted   Kind = iota + 1 // Ctrl-C: what was measured is reported and written
	ServerLost                    // the server went away: what was measured is reported and written
	Unreachable                   // no server answered
	Auth                          // the server refused the credentials
	Refused                       // setup refused by mongoload: a collection it did not create, a conflicting load
	ServerFailure                 // the server failed a setup command, seeding or loading
	Output                        // an output (the results file, an interval log, a sink) could not be written
	Usage                         // a setting the run cannot use (a Prometheus address it cannot listen on)
	SLAMissed                     // a battery's runs missed their objectives
	NoServerCPU                   // --target-server-cpu: the server's CPU cannot be measured
	Unsupported                   // the server lacks what the workload declares (time-series collections, change streams)
)

// Error is a run's failure and its kind.
type Error struct {
	Kind Kind
	Err  error
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// fail classifies err; nil stays nil.
func fail(k Kind, err error) error {
	if err == nil {
		return nil
	}
	return &Error{Kind: k, Err: err}
}

// KindOf finds the kind of a run's failure in err's chain.
func KindOf(err error) (Kind, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind, true
	}
	return 0, false
}
