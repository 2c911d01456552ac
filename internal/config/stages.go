package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Stage is one step of a ramp: for Duration, run at Target (operations per
// second in open loop, workers in closed loop).
type Stage struct {
	Duration Duration `yaml:"duration" json:"duration"`
	Target   float64  `yaml:"target" json:"target"`
}

// Stages is a ramp, written in files as a list of {duration, target} or, like
// the --stages flag, as "30s:1000,30s:2000".
type Stages []Stage

// ParseStages reads "30s:1000,1m:2000".
func ParseStages(s string) (Stages, error) {
	var out Stages
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		d, t, ok := strings.Cut(part, ":")
		if !ok {
			return nil, fmt.Errorf("stage %q: write DURATION:TARGET, for example 30s:1000", part)
		}
		dur, err := ParseDuration(d)
		if err != nil || dur <= 0 {
			return nil, fmt.Errorf("stage %q: %q is not a positive duration", part, d)
		}
		target, err := RateRange.Parse(t) // whole workers in closed loop: Validate knows the model
		if err != nil {
			return nil, fmt.Errorf("stage %q: the target (a rate, or workers in closed loop): %w", part, err)
		}
		out = append(out, Stage{Duration: dur, Target: target})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no stage in %q", s)
	}
	return out, nil
}

// SetRate sets the open-loop rate. A repeated curve (a captured workload's
// rate over time, whose mean is the rate) is rescaled to the new mean, so
// --rate N keeps the bursts and changes the level.
func (r *Run) SetRate(rate float64) {
	if r.RepeatStages && r.Rate > 0 {
		for i := range r.Stages {
			r.Stages[i].Target *= rate / r.Rate
		}
	}
	r.Rate = rate
}

// Total is the length of the whole ramp.
func (s Stages) Total() time.Duration {
	var d time.Duration
	for _, st := range s {
		d += st.Duration.D()
	}
	return d
}

// UnmarshalYAML accepts the flag's string form as well as a list.
func (s *Stages) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		v, err := ParseStages(n.Value)
		if err != nil {
			return Errorf(Invalid, n.Line, "%v", err)
		}
		*s = v
		return nil
	}
	var list []Stage
	if err := n.Decode(&list); err != nil {
		return err
	}
	*s = list
	return nil
}

// Partition is this process's share i of N (0 <= i < N).
type Partition struct{ Index, Count int }

// ParsePartition reads "i/N"; "" means the whole (0/1).
func ParsePartition(s string) (Partition, error) {
	if s == "" {
		return Partition{0, 1}, nil
	}
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Partition{}, fmt.Errorf("partition %q: write i/N with 0 <= i < N, for example 0/3", s)
	}
	return Partition{i, n}, nil
}

// Share splits total between the partitions: partition i gets its share,
// the first total%N partitions one more, so the shares add up to total.
func (p Partition) Share(total int64) int64 {
	n := int64(p.Count)
	share := total / n
	if int64(p.Index) < total%n {
		share++
	}
	return share
}
