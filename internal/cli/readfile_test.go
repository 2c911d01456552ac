package cli

import (
	"fmt"

	"github.com/mongoload/mongoload/internal/results"
)

// readSweepFile reads path (results.Read) and wants a sweep there.
func readSweepFile(path string) (*results.Sweep, error) {
	f, err := results.Read(path)
	if err != nil {
		return nil, err
	}
	if f.Sweep == nil {
		return nil, fmt.Errorf("%s is not a sweep file", path)
	}
	return f.Sweep, nil
}

// readABFile reads path (results.Read) and wants an A/B file there.
func readABFile(path string) (*results.AB, error) {
	f, err := results.Read(path)
	if err != nil {
		return nil, err
	}
	if f.AB == nil {
		return nil, fmt.Errorf("%s is not an A/B file", path)
	}
	return f.AB, nil
}
