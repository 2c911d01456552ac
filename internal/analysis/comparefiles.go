package analysis

import (
	"fmt"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/results"
)

// CompareRequest is a comparison as the command line asks for it.
type CompareRequest struct {
	Files      []string
	Baseline   string   // the baseline's label or file; "" for the first
	Objectives []string // against the baseline: "throughput>=2x", "read.p95<=+5%"
	// Users, Growth and Headroom plan capacity in users (ParseUserOptions).
	Users, Growth, Headroom string
}

// CompareFiles reads the request's files with read (an A/B file counts as
// its two sides) and compares them. Its own errors carry their kind
// (config.Usage, config.Invalid; a side that measured nothing wraps
// results.ErrNothingMeasured); read's are returned as they are.
func CompareFiles(r CompareRequest, read func(path string) (*results.File, error)) (*results.Comparison, []CompareInput, error) {
	usage := func(err error) error { return &config.Error{Kind: config.Usage, Msg: err.Error()} }
	tooFew := usage(fmt.Errorf("compare needs at least two results or sweep files (or one A/B file: its two sides)"))
	if len(r.Files) == 0 {
		return nil, nil, tooFew
	}
	var objs []RelObjective
	for _, s := range r.Objectives {
		o, err := ParseRelObjective(s)
		if err != nil {
			return nil, nil, usage(err)
		}
		objs = append(objs, o)
	}
	uo, users, err := ParseUserOptions(r.Users, r.Growth, r.Headroom) // the values first, the files after
	if _, invalid := config.KindOf(err); invalid {
		return nil, nil, err
	} else if err != nil {
		return nil, nil, usage(err)
	}
	var inputs []CompareInput
	for _, path := range r.Files {
		f, err := read(path)
		if err != nil && len(r.Files) == 1 {
			return nil, nil, tooFew // one file, and not an A/B file
		} else if err != nil {
			return nil, nil, err
		}
		if f.AB == nil {
			inputs = append(inputs, CompareInput{File: path, Result: f.Result, Sweep: f.Sweep})
			continue
		}
		for _, side := range []string{"A", "B"} {
			res := f.AB.SideResult(side)
			if res == nil {
				return nil, nil, fmt.Errorf("%s: side %s %w: give an A/B file whose rounds ran", path, side, results.ErrNothingMeasured)
			}
			inputs = append(inputs, CompareInput{File: path + " (" + side + ")", Result: res})
		}
	}
	if len(inputs) < 2 {
		return nil, nil, tooFew
	}
	base, err := BaselineIndex(r.Baseline, inputs)
	if err != nil {
		return nil, nil, usage(err)
	}
	c, err := Compare(inputs, base, objs)
	if err != nil {
		return nil, nil, &config.Error{Kind: config.Invalid, Msg: err.Error()}
	}
	if users {
		if err := PlanUsers(c, inputs, uo); err != nil {
			return nil, nil, usage(err)
		}
	}
	return c, inputs, nil
}
