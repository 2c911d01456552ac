package analysis

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mongoload/mongoload/internal/results"
)

// CompareInput is one compared file: a results file or a sweep.
type CompareInput struct {
	File   string
	Result *results.Result
	Sweep  *results.Sweep
}

// label names an input: its label, else its file name without extension.
func (in CompareInput) label() string {
	l := ""
	if in.Result != nil {
		l = in.Result.Label
	} else if in.Sweep != nil {
		l = in.Sweep.Label
	}
	if l == "" {
		l = strings.TrimSuffix(filepath.Base(in.File), filepath.Ext(in.File))
	}
	return l
}

func (in CompareInput) cost() *results.Cost {
	if in.Sweep != nil {
		return in.Sweep.Cost
	}
	return results.CostOf(in.Result)
}

// parameter is the load parameter of an input: concurrency, rate or sessions.
func (in CompareInput) parameter() string {
	if in.Sweep != nil {
		return in.Sweep.Load.Parameter
	}
	switch in.Result.Load.Type {
	case results.Open:
		return "rate"
	case results.Sessions:
		return "sessions"
	}
	return "concurrency"
}

// levels are the load levels an input measured completely.
func (in CompareInput) levels() []float64 {
	if in.Sweep == nil {
		l := in.Result.Load
		switch in.parameter() {
		case "rate":
			return []float64{l.Rate}
		case "sessions":
			return []float64{float64(l.Sessions)}
		}
		return []float64{float64(l.Concurrency)}
	}
	var out []float64
	for _, st := range in.Sweep.Steps {
		if st.Complete && st.Result != nil {
			out = append(out, st.Level)
		}
	}
	return out
}

// at is the result of an input at level (a sweep's step), or its own.
func (in CompareInput) at(level float64) *results.Result {
	if in.Sweep == nil {
		return in.Result
	}
	var last *results.Result
	for _, st := range in.Sweep.Steps {
		if st.Complete && st.Result != nil {
			last = st.Result
			if st.Level == level {
				return st.Result
			}
		}
	}
	return last // the highest complete step
}

// BaselineIndex finds --baseline among the inputs, by label or file.
func BaselineIndex(want string, inputs []CompareInput) (int, error) {
	if want == "" {
		return 0, nil
	}
	var labels []string
	for i, in := range inputs {
		label := ""
		if in.Result != nil {
			label = in.Result.Label
		} else if in.Sweep != nil {
			label = in.Sweep.Label
		}
		if label == want || in.File == want || filepath.Base(in.File) == want || filepath.Clean(in.File) == filepath.Clean(want) {
			return i, nil
		}
		if label != "" {
			labels = append(labels, label)
		}
	}
	return 0, fmt.Errorf("--baseline %q names no input: give a label (%s) or a file", want, strings.Join(labels, ", "))
}
