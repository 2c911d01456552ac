//go:build race

package testserver

// Race is true when the tests run with the race detector.
const Race = true
