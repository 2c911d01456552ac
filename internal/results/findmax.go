package results

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// FindMaxSchema identifies this version of the findmax file format
// (docs/capacity.md). The rules of Schema apply.
const FindMaxSchema = "mongoload.findmax/v1"

// FindMax is one rate search's file: every probe's full result in the
// order they ran, and the highest rate that met the service level.
type FindMax struct {
	FileHead
	// SLO is the service level every probe was judged by, as written;
	// besides it a probe fails on any dropped operation or error, or when
	// it achieved less than AchievedShare of its rate.
	SLO           []string `json:"slo"`
	AchievedShare float64  `json:"achievedShare"`
	// Start is the first probe's rate and StartFrom where it came from:
	// "--start" or "estimate" (a closed-loop run's throughput, Estimate).
	Start     float64 `json:"start"`
	StartFrom string  `json:"startFrom"`
	Estimate  *Result `json:"estimate,omitempty"`
	Factor    float64 `json:"factor"`
	Precision float64 `json:"precision"`
	// StepSpan's steps are the probes.
	StepSpan
	Probes []Probe `json:"probes"`
	// MaxRate is the highest rate in ops/s at which every probe met the
	// service level (its repeat included); 0 when none did. Found says
	// whether one did, Bracketed whether a failing rate within Precision
	// above it was measured (without it MaxRate is only a lower bound).
	MaxRate   float64 `json:"maxRate"`
	Found     bool    `json:"found"`
	Bracketed bool    `json:"bracketed"`
	// FailedAbove is the lowest failing rate above MaxRate and the terms
	// it failed, as "p99<=10ms (measured 14.2ms)".
	FailedAbove *FailedProbe `json:"failedAbove,omitempty"`
	// MaxRateInterval is MaxRate with its uncertainty; nil when the
	// probes were not judged as proportions (no latency objective).
	MaxRateInterval *RateInterval `json:"maxRateInterval,omitempty"`
	// Limit is what limited the rate (the sweep's kinds, docs/sweep.md).
	Limit Limit `json:"limit"`
	// Summary is the search's conclusion in one sentence.
	Summary string `json:"summary"`
	// Calibration is set by --target-server-cpu.
	Calibration *Calibration `json:"calibration,omitempty"`
	// Reliable says whether the answer can be trusted (nil in files
	// written before it was assessed), ReliableWhy why in one sentence,
	// Reliability the figures behind it.
	Reliable    *bool        `json:"reliable,omitempty"`
	ReliableWhy string       `json:"reliableWhy,omitempty"`
	Reliability *Reliability `json:"reliability,omitempty"`
}

// Probe is one measured rate.
type Probe struct {
	Rate  float64 `json:"rate"`
	Stage string  `json:"stage"` // climb, descend, bisect or confirm
	Pass  bool    `json:"pass"`
	// Terms are every term of the service level with its measured value.
	Terms  []Term  `json:"terms"`
	Result *Result `json:"result"`
	// Interrupted says how the server stopped answering during the probe
	// and came back: such a probe measured the pause, not the rate, and
	// is not judged (Pass false, no Terms); the rate is probed again.
	Interrupted string `json:"interrupted,omitempty"`
	// Tails judge the probe's latency objectives by what it measured with
	// its uncertainty (capacity.ProportionInterval): the operations over
	// each bound, pooled over the probe's segments. A probe whose interval
	// straddled the share allowed was extended at the same rate: its
	// earlier segments are kept with their Tails (verdict inconclusive)
	// and no Terms.
	Tails []ProbeTail `json:"tails,omitempty"`
	// Inconclusive: a judged probe whose interval still straddled an
	// objective when its extensions ran out (its terms say
	// "inconclusive"): Pass is its point estimate's verdict.
	Inconclusive bool `json:"inconclusive,omitempty"`
}

// ProbeTail is one latency objective of a probe as a proportion: the
// share of operations over its bound and the confidence interval of it.
type ProbeTail struct {
	Objective  string  `json:"objective"`  // as written: p99<=8ms
	BoundMs    float64 `json:"boundMs"`    // 8
	Allowed    float64 `json:"allowed"`    // the share the objective allows over the bound: 0.01
	Over       int64   `json:"over"`       // operations over the bound (dropped ones included)
	Operations int64   `json:"operations"` // answered and dropped
	Share      float64 `json:"share"`      // Over / Operations
	Low        float64 `json:"low"`        // the share's confidence interval
	High       float64 `json:"high"`
	Confidence float64 `json:"confidence"`
	Seconds    float64 `json:"seconds"`  // measured, the segments so far together
	Segments   int     `json:"segments"` // the first run and its extensions so far
	Verdict    string  `json:"verdict"`  // pass (High below Allowed), fail (Low above it) or inconclusive
}

// RateInterval is a search's answer with its uncertainty: the highest
// rate shown to pass (Low, maxRate) and the lowest shown to fail above it
// (High; 0 when none was), each judged at Confidence; and what finding
// them took.
type RateInterval struct {
	Low        float64 `json:"low"`
	High       float64 `json:"high"`
	Confidence float64 `json:"confidence"`
	Probes     int     `json:"probes"`  // measured runs, extensions included
	Seconds    float64 `json:"seconds"` // their measured seconds together (warm-ups and cooldowns besides)
	// ByPercentile: the probe at low or at high had too few operations
	// for an interval and was judged by its percentile, as measured: that
	// end is not shown at Confidence.
	ByPercentile bool `json:"byPercentile,omitempty"`
	// Edge are the rates inside the interval whose windows disagreed:
	// the SLO held in some and not in others (capacity.NeedPass).
	Edge []float64 `json:"edge,omitempty"`
	// PassWindows and FailWindows are the runs measured at Low (passing,
	// no rate below it shown to fail) and from High to FailSpan times it
	// (more failing than passing, unless one was not carried or failed by
	// its interval): at least capacity.NeedPass and NeedFail where that
	// end is shown. StallWindows are Low's runs that failed by their point
	// estimate alone (a stall, their interval straddling the objective):
	// one at most, outvoted by capacity.PassesPerStall passing runs.
	PassWindows  int `json:"passWindows,omitempty"`
	StallWindows int `json:"stallWindows,omitempty"`
	FailWindows  int `json:"failWindows,omitempty"`
	// HighStallsOnly: every failing run of FailWindows failed by its
	// point estimate alone (none by its interval, none not carried). A
	// hiccup that outlasts a window fails neighbouring probes so, and a
	// search run again may find the high end well above.
	HighStallsOnly bool    `json:"highStallsOnly,omitempty"`
	FailSpan       float64 `json:"failSpan,omitempty"`
	// Margin is how far below the lowest rate that failed the search
	// sought its answer (capacity.EdgeMargin): a promise for the minutes
	// after the search, not only for its own windows.
	Margin float64 `json:"margin,omitempty"`
	// Unshown names the end the probe budget left without those windows:
	// "high" (the answer, Low, is shown; the rate above it is a failure
	// not yet repeated) or "low" (no rate was shown to pass: Low is 0,
	// and Candidate the rate that came closest).
	Unshown string `json:"unshown,omitempty"`
	// Candidate is, when no rate was shown to pass (Low 0, Unshown
	// "low"), the highest rate that passed with none failing there or
	// shown to fail below it, and CandidateRuns the runs it passed in.
	// CandidateStalls are its runs that failed by their point estimate
	// alone (one at most: capacity.PassesPerStall passing runs outvote it).
	Candidate       float64 `json:"candidate,omitempty"`
	CandidateRuns   int     `json:"candidateRuns,omitempty"`
	CandidateStalls int     `json:"candidateStalls,omitempty"`
}

// Term is one term of a probe's service level.
type Term struct {
	Text     string  `json:"text"`
	Measured float64 `json:"measured"` // in the term's unit; +Inf is written as null
	Shown    string  `json:"shown"`    // the measured value for people
	Pass     bool    `json:"pass"`
	// Bound is the term's threshold in Unit ("ms", "%", "ops/s" or "" for
	// a count), for the chart's SLO line.
	Bound float64 `json:"bound"`
	Unit  string  `json:"unit"`
}

// UnmarshalJSON reads a null measurement as +Inf (MarshalJSON).
func (t *Term) UnmarshalJSON(b []byte) error {
	type plain Term
	var v struct {
		plain
		Measured *float64 `json:"measured"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*t = Term(v.plain)
	t.Measured = math.Inf(1)
	if v.Measured != nil {
		t.Measured = *v.Measured
	}
	return nil
}

// MarshalJSON writes an infinite measurement as null: JSON has no infinity.
func (t Term) MarshalJSON() ([]byte, error) {
	type plain Term
	var m *float64
	if t.Measured <= 1e300 && t.Measured >= -1e300 {
		m = &t.Measured
	}
	return json.Marshal(struct {
		plain
		Measured *float64 `json:"measured"`
	}{plain(t), m})
}

// FailedProbe names the failing rate above the maximum and what failed.
type FailedProbe struct {
	Rate   float64  `json:"rate"`
	Failed []string `json:"failed"`
}

// Calibration is the load at which the server's CPU sat at a target.
type Calibration struct {
	// Target is the server's CPU as a share of its cores (0..1), Cores the
	// cores it has; Source says where its CPU was read: "serverStatus" or
	// "/proc/<pid>/stat".
	Target float64 `json:"target"`
	Cores  int     `json:"cores"`
	Source string  `json:"source"`
	// Parameter is the load parameter and Level its value at the target;
	// Measured the server's CPU share there, Throughput the throughput.
	Parameter  string  `json:"parameter"`
	Level      float64 `json:"level"`
	Measured   float64 `json:"measured"`
	Throughput float64 `json:"throughput"`
	// Within says whether a measured level's CPU lies within the tolerance
	// of the target; else Level is the nearest found, Note says why.
	Within bool   `json:"within"`
	Note   string `json:"note,omitempty"`
	// Points are the levels measured for it, in order.
	Points []CalibrationPoint `json:"points"`
}

// CalibrationPoint is one calibration measurement, over the measured
// phase From to To.
type CalibrationPoint struct {
	Level      float64 `json:"level"`
	CPU        float64 `json:"cpu"` // share of the server's cores
	Throughput float64 `json:"throughput"`
	// Interference is the other work on the host during it, as a share
	// of the host's cores (Result.Interference), where it was measured.
	Interference *float64  `json:"interference,omitempty"`
	From         time.Time `json:"from"`
	To           time.Time `json:"to"`
}

// MaxProbe is the probe at MaxRate that ran last (its repeat), nil when no
// rate met the service level.
func (f *FindMax) MaxProbe() *Probe {
	if !f.Found {
		return nil
	}
	for i := len(f.Probes) - 1; i >= 0; i-- {
		if p := &f.Probes[i]; p.Rate == f.MaxRate && p.Pass {
			return p
		}
	}
	return nil
}

// Sweep is the search as a rate sweep, for the comparison and the report:
// one step per rate probed, in rising order, the last probe at a rate
// standing for it. FindMax points back at f.
func (f *FindMax) Sweep() *Sweep {
	byRate := map[float64]*Probe{}
	for i := range f.Probes {
		p := &f.Probes[i]
		if had := byRate[p.Rate]; had != nil && had.Interrupted == "" && p.Interrupted != "" {
			continue // a probe the server's pause interrupted stands for no rate a judged one measured
		}
		byRate[p.Rate] = p
	}
	var rates []float64
	for r := range byRate {
		rates = append(rates, r)
	}
	slices.Sort(rates)
	sw := &Sweep{FileHead: f.FileHead, Load: SweepLoad{Type: Open, Parameter: "rate", Levels: rates},
		StepSpan: f.StepSpan, Steps: []SweepStep{}, Calibration: f.Calibration, FindMax: f,
		Reliable: f.Reliable, ReliableWhy: f.ReliableWhy, Reliability: f.Reliability}
	sw.Schema = SweepSchema
	for _, r := range rates {
		p := byRate[r]
		sw.Steps = append(sw.Steps, SweepStep{Level: r, Complete: p.Result != nil && p.Result.Outcome != Interrupted, Result: p.Result})
	}
	return sw
}

// WriteFindMax writes f to path as indented JSON with FindMaxSchema,
// atomically like WriteJSON.
func WriteFindMax(path string, f *FindMax) error {
	out := *f
	out.Schema = FindMaxSchema
	return writeIndented("findmax", path, &out)
}

// readFindMax reads a findmax file whose schema was read already.
func readFindMax(path string, b []byte, schema string) (*FindMax, error) {
	if schema != FindMaxSchema {
		return nil, fmt.Errorf("read findmax %q: schema %q is not supported: this mongoload reads %q", path, schema, FindMaxSchema)
	}
	var f FindMax
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("read findmax %q: %w", path, err)
	}
	return &f, nil
}

// isFindMax says whether a schema is a findmax file's.
func isFindMax(schema string) bool { return strings.HasPrefix(schema, "mongoload.findmax/") }

// ReadFindMax reads a findmax file.
func ReadFindMax(path string) (*FindMax, error) {
	b, err := ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read findmax: %w", err)
	}
	schema, err := schemaOf(path, b)
	if err != nil {
		return nil, err
	}
	return readFindMax(path, b, schema)
}

// IntervalText is a search's answer with its uncertainty, in a sentence.
func IntervalText(iv *RateInterval) string {
	if iv.Low == 0 {
		s := fmt.Sprintf("No rate was shown to pass (%.0f%% confidence in each probe's verdict), in %d probes and %g s measured", 100*iv.Confidence, iv.Probes, iv.Seconds)
		if iv.Candidate > 0 {
			failing := "with none failing there"
			if iv.CandidateStalls > 0 {
				failing = fmt.Sprintf("and failed in %d by its point estimate alone (a stall)", iv.CandidateStalls)
			}
			s += fmt.Sprintf("; %s ops/s passed in %d runs %s, fewer than the rule asks (raise --max-probes)", Target(iv.Candidate), iv.CandidateRuns, failing)
		}
		return s
	}
	s := fmt.Sprintf("The maximum rate lies between %s and ", Target(iv.Low))
	if iv.High > 0 {
		s += Target(iv.High) + " ops/s"
	} else {
		s += "an unmeasured rate above it"
	}
	s += fmt.Sprintf(" (%.0f%% confidence in each probe's verdict), found in %d probes and %g s measured", 100*iv.Confidence, iv.Probes, iv.Seconds)
	if iv.PassWindows > 0 && !strings.Contains(iv.Unshown, "low") {
		failing := "with none failing there"
		if iv.StallWindows > 0 {
			failing = fmt.Sprintf("and failed in %d by its point estimate alone (a stall, outvoted)", iv.StallWindows)
		}
		s += fmt.Sprintf("; the low end passed in %d runs %s and no rate below it shown to fail", iv.PassWindows, failing)
	}
	if iv.Margin > 1 && iv.High > 0 {
		s += fmt.Sprintf("; the answer was sought at least %g times below the lowest rate that failed, for the minutes after the search too", iv.Margin)
		if iv.High < iv.Low*iv.Margin {
			// A rate probed to raise the answer, once it was shown, failed
			// within the margin: the answer stands, its promise is weaker.
			s += fmt.Sprintf(", but the high end, found after the answer was shown, lies only %.2f times above it", iv.High/iv.Low)
		}
	}
	if iv.FailWindows > 0 && iv.High > 0 && !strings.Contains(iv.Unshown, "high") {
		s += fmt.Sprintf("; the high end failed in %d runs there and up to %g times it (or dropped operations), more than passed", iv.FailWindows, iv.FailSpan)
		if iv.HighStallsOnly {
			s += ", each by its point estimate alone (its interval straddled the objective): a hiccup outlasting a window fails neighbouring probes so, and a search run again may find the high end higher"
		}
	}
	if len(iv.Edge) > 0 {
		var rs []string
		for _, e := range iv.Edge {
			rs = append(rs, Target(e))
		}
		s += "; at " + strings.Join(rs, ", ") + " ops/s, inside it, some windows met the SLO and others did not: the edge"
	}
	if iv.Unshown != "" {
		s += "; the probes ran out before the " + iv.Unshown + " end was measured in enough runs to show it (raise --max-probes)"
	}
	if iv.ByPercentile {
		s += "; an end of it had too few operations for an interval and was judged by its percentile alone"
	}
	return s
}

// TailsText is a probe's latency objectives as proportions, for a table:
// "1.2% over 8ms (0.9%-1.6%)".
func TailsText(tails []ProbeTail) string {
	var parts []string
	for _, t := range tails {
		parts = append(parts, fmt.Sprintf("%.2f%% over %gms (%.2f%%-%.2f%%, %.1fs)", 100*t.Share, t.BoundMs, 100*t.Low, 100*t.High, t.Seconds))
	}
	return strings.Join(parts, ", ")
}
