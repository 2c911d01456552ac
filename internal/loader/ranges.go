package loader

import (
	"fmt"
	"sort"
	"strings"
)

// Range is the half-open key range [From, To).
type Range struct{ From, To int64 }

// Len is the number of keys in r (0 when empty).
func (r Range) Len() int64 { return max(r.To-r.From, 0) }

func (r Range) String() string { return fmt.Sprintf("[%d, %d)", r.From, r.To) }

// Ranges is a set of keys kept as sorted, disjoint, non-adjacent ranges:
// the compact form in which a load records the keys it has written. Keys
// are written in chunks by parallel workers that finish out of order, so
// the set stays a handful of ranges however many keys it holds.
type Ranges []Range

// Add returns rs with r added, merging what overlaps or touches.
func (rs Ranges) Add(r Range) Ranges {
	if r.Len() == 0 {
		return rs
	}
	// The first range that ends at or after r starts: everything before
	// it stays; it and those after that start at or before r's end merge.
	i := sort.Search(len(rs), func(i int) bool { return rs[i].To >= r.From })
	j := i
	for j < len(rs) && rs[j].From <= r.To {
		r.From, r.To = min(r.From, rs[j].From), max(r.To, rs[j].To)
		j++
	}
	out := make(Ranges, 0, len(rs)-(j-i)+1)
	out = append(append(append(out, rs[:i]...), r), rs[j:]...)
	return out
}

// Union returns the keys of rs and of other.
func (rs Ranges) Union(other Ranges) Ranges {
	for _, r := range other {
		rs = rs.Add(r)
	}
	return rs
}

// Len is the number of keys in rs.
func (rs Ranges) Len() int64 {
	var n int64
	for _, r := range rs {
		n += r.Len()
	}
	return n
}

// Gaps returns the keys of within that rs does not hold, in order.
func (rs Ranges) Gaps(within Range) Ranges {
	var out Ranges
	at := within.From
	for _, r := range rs {
		if r.To <= at {
			continue
		}
		if r.From >= within.To {
			break
		}
		if r.From > at {
			out = append(out, Range{at, min(r.From, within.To)})
		}
		at = r.To
	}
	if at < within.To {
		out = append(out, Range{at, within.To})
	}
	return out
}

// Covers reports whether rs holds every key of r.
func (rs Ranges) Covers(r Range) bool { return r.Len() == 0 || len(rs.Gaps(r)) == 0 }

// Valid reports whether rs is sorted, disjoint and non-adjacent, as a
// record read back from the server must be before it is trusted.
func (rs Ranges) Valid() bool {
	for i, r := range rs {
		if r.Len() == 0 || (i > 0 && rs[i-1].To >= r.From) {
			return false
		}
	}
	return true
}

func (rs Ranges) String() string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = r.String()
	}
	return "{" + strings.Join(parts, " ") + "}"
}

// Normalize returns the ranges of rs in canonical form, whatever their
// order and overlaps: how a record read back from the server is repaired.
func Normalize(rs []Range) Ranges {
	var out Ranges
	for _, r := range rs {
		out = out.Add(r)
	}
	return out
}
