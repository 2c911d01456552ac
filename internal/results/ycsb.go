package results

import (
	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/mongoload/mongoload/internal/metrics"
)

// YCSB's measurements: how YCSB groups operations into the sections its
// status lines (internal/sink) and its end-of-run text (internal/report)
// show, one rule for both.

// YCSBSection is one of YCSB's measurements, which both the status lines
// and the end-of-run sections show: a mix operation's latencies, and those
// of the read-modify-write parts that YCSB measures under the same name.
type YCSBSection struct {
	Name string
	// own is the operations' own: service time in open loop, latency
	// otherwise; intended, in open loop only, the latency from the
	// intended start ([Intended-NAME]).
	Own, Intended *hdrhistogram.Histogram
	// parts are read-modify-writes' reads or updates, each timed from its
	// own start: service time in every load model, with no intended start
	// of its own (so [Intended-READ] leaves them out).
	Parts    *hdrhistogram.Histogram
	OK, Errs int64
	Seen     bool
}

// YCSBSections groups operations into YCSB's measurements, in the order
// each first appears (List).
type YCSBSections struct {
	List   []*YCSBSection
	byName map[string]*YCSBSection
}

// Of returns the section that counts the operation name (a part when
// part is set) given every operation's type.
func (ss *YCSBSections) Of(name, parent string, types map[string]string) (s *YCSBSection, part bool) {
	name, part = YCSBMeasurement(name, parent, types)
	if s = ss.byName[name]; s == nil {
		if ss.byName == nil {
			ss.byName = map[string]*YCSBSection{}
		}
		s = &YCSBSection{Name: name, Own: metrics.NewHistogram(), Parts: metrics.NewHistogram()}
		ss.byName[name] = s
		ss.List = append(ss.List, s)
	}
	return s, part
}

// YCSBMeasurement names the YCSB measurement that counts an operation,
// given every operation's type: its own name, except for the read and the
// update inside a read-modify-write, which YCSB's DBWrapper measures as
// READ and UPDATE (the whole is READ-MODIFY-WRITE, CoreWorkload's
// doTransactionReadModifyWrite). part says the operation is such a part.
func YCSBMeasurement(name, parent string, types map[string]string) (measurement string, part bool) {
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

// Add counts an operation's latencies (svc nil in closed loop) in s.
func (s *YCSBSection) Add(lat, svc *hdrhistogram.Histogram, part bool) {
	switch {
	case part:
		s.Parts.Merge(lat)
	case svc != nil:
		s.Own.Merge(svc)
		if s.Intended == nil {
			s.Intended = metrics.NewHistogram()
		}
		s.Intended.Merge(lat)
	default:
		s.Own.Merge(lat)
	}
}

// Main is what the section's own line shows: the operations' own times and
// the parts'.
func (s *YCSBSection) Main() *hdrhistogram.Histogram {
	if s.Parts.TotalCount() == 0 {
		return s.Own
	}
	m := metrics.NewHistogram()
	m.Merge(s.Own)
	m.Merge(s.Parts)
	return m
}

// Reset empties the section's histograms for the next status interval.
func (s *YCSBSection) Reset() {
	s.Own.Reset()
	s.Parts.Reset()
	if s.Intended != nil {
		s.Intended.Reset()
	}
}
