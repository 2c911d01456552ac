package config

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// Bounds on what a workload file may make mongoload hold in memory. A
// workload is a few kilobytes; these are far above any real one and far
// below what would hurt the machine.
const (
	// MaxWorkloadBytes is the largest workload file read.
	MaxWorkloadBytes = 8 << 20
	// MaxWorkloadValues is the most values (scalars, mappings, lists) a
	// workload may hold once its YAML aliases are expanded. Anchors and
	// aliases may repeat a block; nested aliases that multiply it (a
	// "billion laughs") would otherwise take memory without bound.
	MaxWorkloadValues = 1_000_000
)

// checkSize refuses a workload file too big to be one.
func checkSize(data []byte, name string) error {
	if len(data) > MaxWorkloadBytes {
		return &Error{Kind: Invalid, File: name, Msg: fmt.Sprintf("the workload file is %.1f MB; a workload is at most %d MB (generated data belongs in templates, not in the file)", float64(len(data))/(1<<20), MaxWorkloadBytes>>20)}
	}
	return nil
}

// checkExpansion counts the values root stands for with every alias
// expanded, without expanding any: each node's count is computed once and
// reused wherever an alias points at it, so the walk is linear in the
// file. It fails at the first alias that takes the count past the limit.
func checkExpansion(root *yaml.Node, name string) error {
	memo := map[*yaml.Node]int{}
	var firstAlias *yaml.Node
	var count func(n *yaml.Node) int
	count = func(n *yaml.Node) int {
		if n == nil {
			return 0
		}
		if c, ok := memo[n]; ok {
			return c
		}
		c := 1
		if n.Kind == yaml.AliasNode {
			if firstAlias == nil {
				firstAlias = n
			}
			c = count(n.Alias)
		}
		for _, ch := range n.Content {
			c += count(ch)
			if c > MaxWorkloadValues {
				break // capped: the sum is only compared with the limit
			}
		}
		c = min(c, MaxWorkloadValues+1)
		memo[n] = c
		return c
	}
	if count(root) <= MaxWorkloadValues {
		return nil
	}
	line := 0
	if firstAlias != nil {
		line = firstAlias.Line
	}
	return &Error{Kind: Invalid, File: name, Line: line, Msg: fmt.Sprintf("YAML aliases (*name) expand this workload to more than %d values: an alias may repeat a block, but aliases of aliases multiply it; write the repeated part once (a $gen: array generates lists)", MaxWorkloadValues)}
}
