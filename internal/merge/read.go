package merge

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/mongoload/mongoload/internal/metrics"
	"github.com/mongoload/mongoload/internal/results"
)

// The kinds of input.
const (
	KindResults = "results" // a JSON results file
	KindHlog    = "hlog"    // an HdrHistogram interval log
)

// Source is one input file, read and decoded.
type Source struct {
	File string
	Kind string
	// Result is the results file; nil for an interval log.
	Result *results.Result
	// keys are the operations' keys (results.HlogTag of their names) in the
	// file's order; ops holds them by key.
	keys       []string
	ops        map[string]*opData
	start, end time.Time
	ivs        []interval
	service    bool
}

// opData is one operation's whole-run figures in one source.
type opData struct {
	name     string
	typ      string
	parent   string // the transaction of a step (metrics.InMix)
	lat, svc *hdrhistogram.Histogram
	errors   map[string]int64
	overflow int64
	docs     metrics.Docs // what the server did with documents; summed across sources
}

// interval is one interval of one source.
type interval struct {
	start, end time.Time
	ops        map[string]*ivOp // by key
}

// ivOp is one operation in one interval: its summary as the run wrote it,
// and, from interval logs, the histogram it was computed from.
type ivOp struct {
	sum  results.OpSummary
	hist *hdrhistogram.Histogram
}

// Read reads one input: a results file (.json) or an interval log (.hlog),
// recognized by its content (kindOf), not its name.
func Read(path string) (*Source, error) {
	kind, err := kindOf(path)
	if err != nil {
		return nil, err
	}
	if kind == KindResults {
		return readResults(path)
	}
	return readHlog(path)
}

// kindOf tells a results file from an interval log by its first bytes,
// whatever its name: an interval log named .json, a results file gzipped
// as a history store keeps it (results.ReadFile unzips it).
func kindOf(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("read %q: %w", path, err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && !st.Mode().IsRegular() {
		// Its first bytes tell its kind, then it is read from its start:
		// a stream would give the second reading what follows them.
		return "", fmt.Errorf("read %q: a stream (a pipe or a FIFO): merge reads each input from its start twice; write it to a file and give the file", path)
	}
	br := bufio.NewReader(f)
	var r io.Reader = br
	zipped := false
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return "", fmt.Errorf("read %q: a damaged gzip file: %w", path, err)
		}
		r, zipped = zr, true
	}
	head := make([]byte, 512)
	n, _ := io.ReadFull(r, head)
	switch t := bytes.TrimSpace(head[:n]); {
	case len(t) == 0:
		return "", fmt.Errorf("read %q: the file is empty", path)
	case t[0] == '{':
		return KindResults, nil
	case zipped:
	case t[0] == '#' || bytes.HasPrefix(t, []byte("Tag=")) || bytes.HasPrefix(t, []byte(`"StartTimestamp"`)):
		return KindHlog, nil
	}
	return "", fmt.Errorf("read %q: neither a results file (JSON, gzipped or not) nor an interval log (.hlog)", path)
}

func readResults(path string) (*Source, error) {
	res, err := results.ReadJSON(path)
	if err != nil {
		return nil, err
	}
	if err := res.CheckMeasured(path); err != nil {
		return nil, err
	}
	s := &Source{File: path, Kind: KindResults, Result: res, ops: map[string]*opData{}, start: res.StartedAt, end: res.EndedAt}
	for i := range res.Operations {
		o := &res.Operations[i]
		d := &opData{name: o.Name, typ: o.Type, parent: o.Parent, errors: o.ErrorsByClass, overflow: o.Overflow}
		if o.Docs != nil {
			d.docs = *o.Docs
		}
		if d.errors == nil && o.Errors > 0 {
			d.errors = map[string]int64{"error": o.Errors}
		}
		if d.lat, err = o.LatencyHistogram(); err != nil {
			return nil, fmt.Errorf("%s: operation %s: %w", path, o.Name, err)
		}
		if d.svc, err = o.ServiceTimeHistogram(); err != nil {
			return nil, fmt.Errorf("%s: operation %s: service time: %w", path, o.Name, err)
		}
		if err := checkGeometry(path, o.Name, d.lat, d.svc); err != nil {
			return nil, err
		}
		if d.lat.TotalCount() != o.Count {
			return nil, fmt.Errorf("%s: operation %s: the histogram holds %d latencies but count says %d: the file was edited or is damaged", path, o.Name, d.lat.TotalCount(), o.Count)
		}
		s.service = s.service || d.svc != nil
		key := results.HlogTag(o.Name)
		if s.ops[key] != nil {
			return nil, fmt.Errorf("%s: operation %q appears twice", path, o.Name)
		}
		s.keys = append(s.keys, key)
		s.ops[key] = d
	}
	s.ivs = resultIntervals(res)
	return s, nil
}

// resultIntervals places a results file's series on the wall clock: t is
// seconds since StartedAt at each interval's end.
func resultIntervals(res *results.Result) []interval {
	ivs := make([]interval, 0, len(res.Intervals))
	for _, is := range res.Intervals {
		end := res.StartedAt.Add(time.Duration(is.T * float64(time.Second)))
		iv := interval{start: end.Add(-time.Duration(is.Dt * float64(time.Second))), end: end, ops: map[string]*ivOp{}}
		for _, o := range is.Ops {
			iv.ops[results.HlogTag(o.Name)] = &ivOp{sum: o}
		}
		ivs = append(ivs, iv)
	}
	return ivs
}

func readHlog(path string) (*Source, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read %q: %w", path, err)
	}
	defer f.Close()
	rd := hdrhistogram.NewHistogramLogReader(bufio.NewReader(f))
	s := &Source{File: path, Kind: KindHlog, ops: map[string]*opData{}}
	byTime := map[[2]int64]int{} // (start, end) ms -> index in s.ivs
	var tags []string
	lines := 0
	for {
		h, err := nextHistogram(rd)
		if err != nil {
			return nil, fmt.Errorf("read interval log %q: histogram %d: %w", path, lines+1, err)
		}
		if h == nil {
			break
		}
		lines++
		tag := h.Tag()
		if tag == "" {
			return nil, fmt.Errorf("read interval log %q: histogram %d has no tag: mongoload logs tag every histogram with its operation", path, lines)
		}
		if err := checkGeometry(path, tag, h, nil); err != nil {
			return nil, err
		}
		if s.ops[tag] == nil {
			s.ops[tag] = &opData{name: tag, lat: metrics.NewHistogram()}
			tags = append(tags, tag)
		}
		s.ops[tag].lat.Merge(h)
		k := [2]int64{h.StartTimeMs(), h.EndTimeMs()}
		i, ok := byTime[k]
		if !ok {
			i = len(s.ivs)
			byTime[k] = i
			s.ivs = append(s.ivs, interval{start: time.UnixMilli(k[0]), end: time.UnixMilli(k[1]), ops: map[string]*ivOp{}})
		}
		s.ivs[i].ops[tag] = &ivOp{hist: h}
	}
	if lines == 0 {
		return nil, fmt.Errorf("read interval log %q: %w: no interval histograms in it (a run that ended before its measured phase)", path, results.ErrNothingMeasured)
	}
	s.foldServiceTags(tags)
	s.summarizeIntervals()
	return s, nil
}

// nextHistogram reads one histogram, turning the reader's panics on
// malformed payloads into errors.
func nextHistogram(rd *hdrhistogram.HistogramLogReader) (h *hdrhistogram.Histogram, err error) {
	defer func() {
		if r := recover(); r != nil {
			h, err = nil, fmt.Errorf("malformed line: %v", r)
		}
	}()
	return rd.NextIntervalHistogram()
}

// foldServiceTags makes NAME.service the service time of NAME.
func (s *Source) foldServiceTags(tags []string) {
	for _, tag := range tags {
		base, ok := strings.CutSuffix(tag, results.ServiceTagSuffix)
		if !ok || s.ops[base] == nil {
			s.keys = append(s.keys, tag)
			continue
		}
		s.ops[base].svc = s.ops[tag].lat
		delete(s.ops, tag)
		s.service = true
		for _, iv := range s.ivs {
			delete(iv.ops, tag)
		}
	}
	for _, iv := range s.ivs {
		if s.start.IsZero() || iv.start.Before(s.start) {
			s.start = iv.start
		}
		if iv.end.After(s.end) {
			s.end = iv.end
		}
	}
}

// summarizeIntervals computes each interval's summaries from its
// histograms, exactly as a run summarizes its own intervals.
func (s *Source) summarizeIntervals() {
	for _, iv := range s.ivs {
		for key, o := range iv.ops {
			m := &metrics.Interval{Start: iv.start, End: iv.end, Ops: []metrics.OpInterval{{Name: s.ops[key].name, Latency: o.hist}}}
			o.sum = results.Summarize(m, 0).Ops[0]
		}
	}
}

// checkGeometry rejects histograms that cannot be added to mongoload's
// exactly: another tool's log, or values in other units.
func checkGeometry(file, name string, hs ...*hdrhistogram.Histogram) error {
	for _, h := range hs {
		if h != nil && !metrics.SameGeometry(h) {
			return fmt.Errorf("%s: %s: histogram covers %d to %d at %d significant digits, not mongoload's %d µs to %d µs at %d: it was not written by mongoload (or holds other units), so adding it would not be exact",
				file, name, h.LowestTrackableValue(), h.HighestTrackableValue(), h.SignificantFigures(),
				metrics.LowestMicros, metrics.HighestMicros, metrics.SigFigs)
		}
	}
	return nil
}

// ErrNoInputs is returned by Merge when it is given nothing to merge.
var ErrNoInputs = errors.New("nothing to merge: give one or more results files (.json) or interval logs (.hlog)")
