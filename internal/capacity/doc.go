// Package capacity answers capacity questions with sequences of runs: the
// highest open-loop rate that meets a service level (findmax), and the load
// at which the server's CPU sits at a target (calibration).
//
// The search decisions are pure functions of the probes measured so far
// (Policy.Next, CalibrationPolicy.Next), table-tested without a clock or a
// server; Search and Calibrate drive them through a RunFunc, the one place a
// run is asked for, so the caller decides how a run happens.
package capacity
