package report

import (
	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/mongoload/mongoload/internal/metrics"
)

// ycsbSection is one of YCSB's measurements, which both the status lines
// and the end-of-run sections show: a mix operation's latencies, and those
// of the read-modify-write parts that YCSB measures under the same name.
type ycsbSection struct {
	name string
	// own is the operations' own: service time in open loop, latency
	// otherwise; intended, in open loop only, the latency from the
	// intended start ([Intended-NAME]).
	own, intended *hdrhistogram.Histogram
	// parts are read-modify-writes' reads or updates, each timed from its
	// own start: service time in every load model, with no intended start
	// of its own (so [Intended-READ] leaves them out).
	parts    *hdrhistogram.Histogram
	ok, errs int64
	seen     bool
}

// ycsbSections groups operations into YCSB's measurements, in the order
// each first appears.
type ycsbSections struct {
	list   []*ycsbSection
	byName map[string]*ycsbSection
}

// of returns the section that counts the operation name (a part when
// part is set) given every operation's type.
func (ss *ycsbSections) of(name, parent string, types map[string]string) (s *ycsbSection, part bool) {
	name, part = ycsbMeasurement(name, parent, types)
	if s = ss.byName[name]; s == nil {
		if ss.byName == nil {
			ss.byName = map[string]*ycsbSection{}
		}
		s = &ycsbSection{name: name, own: metrics.NewHistogram(), parts: metrics.NewHistogram()}
		ss.byName[name] = s
		ss.list = append(ss.list, s)
	}
	return s, part
}

// ycsbMeasurement names the YCSB measurement that counts an operation,
// given every operation's type: its own name, except for the read and the
// update inside a read-modify-write, which YCSB's DBWrapper measures as
// READ and UPDATE (the whole is READ-MODIFY-WRITE, CoreWorkload's
// doTransactionReadModifyWrite). part says the operation is such a part.
func ycsbMeasurement(name, parent string, types map[string]string) (measurement string, part bool) {
	if parent == "" || types[parent] != "readModifyWrite" {
		return name, false
	}
	switch types[name] { // YCSB's names, which internal/ycsb gives its operations too
	case "findOne":
		return "READ", true
	case "updateOne":
		return "UPDATE", true
	}
	return name, false
}

// add counts an operation's latencies (svc nil in closed loop) in s.
func (s *ycsbSection) add(lat, svc *hdrhistogram.Histogram, part bool) {
	switch {
	case part:
		s.parts.Merge(lat)
	case svc != nil:
		s.own.Merge(svc)
		if s.intended == nil {
			s.intended = metrics.NewHistogram()
		}
		s.intended.Merge(lat)
	default:
		s.own.Merge(lat)
	}
}

// main is what the section's own line shows: the operations' own times and
// the parts'.
func (s *ycsbSection) main() *hdrhistogram.Histogram {
	if s.parts.TotalCount() == 0 {
		return s.own
	}
	m := metrics.NewHistogram()
	m.Merge(s.own)
	m.Merge(s.parts)
	return m
}

// reset empties the section's histograms for the next status interval.
func (s *ycsbSection) reset() {
	s.own.Reset()
	s.parts.Reset()
	if s.intended != nil {
		s.intended.Reset()
	}
}
