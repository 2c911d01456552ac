package report

import "github.com/mongoload/mongoload/internal/results/resultstest"

var _ = resultstest.UpdateFlag() // go test -update rewrites the golden files
