// Package archtest holds tests of the code's shape: rules that keep the
// packages to their one job, checked on every test run.
package archtest
