package capture

import (
	"cmp"
	"slices"
)

// OpNames maps each shape's key to the name the workload file gives its
// operation (Result.Workload's order and opName), so that a replay of the
// capture's trace reports its operations under the same names.
func (s *Shapes) OpNames() map[string]string {
	shapes := slices.Clone(s.Order)
	slices.SortStableFunc(shapes, func(a, b *Shape) int { return cmp.Compare(b.Count, a.Count) })
	used, out := map[string]int{}, map[string]string{}
	for _, sh := range shapes {
		out[sh.Key] = opName(sh, used)
	}
	return out
}
