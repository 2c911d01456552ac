package metrics

import "github.com/HdrHistogram/hdrhistogram-go"

// set holds everything one shard records for every operation during one
// interval. A shard owns one, drained into every interval.
type set struct {
	lat      []*hdrhistogram.Histogram
	svc      []*hdrhistogram.Histogram // nil unless Options.Service
	overflow []int64
	docs     []Docs
	errors   []map[string]int64 // per op; a map is made on the op's first error
	outcomes []map[string]int64 // per op: business outcomes and retries, like errors
}

func newSet(nops int, service bool) *set {
	s := &set{
		lat:      make([]*hdrhistogram.Histogram, nops),
		overflow: make([]int64, nops),
		docs:     make([]Docs, nops),
		errors:   make([]map[string]int64, nops),
		outcomes: make([]map[string]int64, nops),
	}
	for i := range s.lat {
		s.lat[i] = NewHistogram()
	}
	if service {
		s.svc = make([]*hdrhistogram.Histogram, nops)
		for i := range s.svc {
			s.svc[i] = NewHistogram()
		}
	}
	return s
}

// addOpTo adds the set's recordings of operation i to o. Merge's dropped
// count is ignored because it is always 0 here: both sides have
// NewHistogram's geometry, and no total comes near MaxInt64.
func (s *set) addOpTo(i int, o *OpInterval) {
	o.Latency.Merge(s.lat[i])
	if s.svc != nil {
		o.Service.Merge(s.svc[i])
	}
	o.Overflow += s.overflow[i]
	o.Docs.Add(s.docs[i])
	o.Errors = addErrors(o.Errors, s.errors[i])
	o.Outcomes = addErrors(o.Outcomes, s.outcomes[i])
}

// reset empties the set.
func (s *set) reset() {
	for i := range s.lat {
		s.resetOp(i)
	}
}

// resetOp empties operation i's recordings. clear keeps the maps' storage,
// so a recurring error class does not allocate again on the hot path.
func (s *set) resetOp(i int) {
	resetHistogram(s.lat[i])
	if s.svc != nil {
		resetHistogram(s.svc[i])
	}
	s.overflow[i] = 0
	s.docs[i] = Docs{}
	clear(s.errors[i])
	clear(s.outcomes[i])
}

// resetHistogram skips histograms that are already empty: Reset zeroes all
// 190 KB, and most shards see few of the operations in a short interval.
func resetHistogram(h *hdrhistogram.Histogram) {
	if h.TotalCount() != 0 {
		h.Reset()
	}
}

// addErrors adds the counts of from to dst, making dst only when there is
// something to add, so an operation without errors keeps a nil map.
func addErrors(dst, from map[string]int64) map[string]int64 {
	for class, n := range from {
		if n == 0 {
			continue
		}
		if dst == nil {
			dst = make(map[string]int64, len(from))
		}
		dst[class] += n
	}
	return dst
}

// sumErrors is the total of an error-class map.
func sumErrors(m map[string]int64) int64 {
	var n int64
	for _, c := range m {
		n += c
	}
	return n
}
