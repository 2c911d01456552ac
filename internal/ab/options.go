package ab

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
	"github.com/mongoload/mongoload/internal/run"
	"github.com/mongoload/mongoload/internal/workload"
)

// Options are one A/B comparison: the baseline's configuration, the
// candidate, and how both are measured and judged.
type Options struct {
	// Config and Plan are the baseline's (A), resolved and validated. The
	// candidate's (B) are made from them: its URI, the same seeds, a plan
	// of its own (each side keeps its own key spaces).
	Config       *config.Config
	Plan         *workload.Plan
	CandidateURI string
	Rounds       int  // measured runs per side (RoundsRange)
	Parallel     bool // both sides at once each round (open loop)
	Verify       int  // operations verified per shape before the rounds (VerifyRange)
	// AllowSame lets both sides be one deployment (an A/A run); without
	// it, two URIs of one deployment are refused.
	AllowSame bool
	Judge     ABOptions // Threshold (ThresholdRange), Alpha (AlphaRange)
	// Out and HTML are the files the caller writes the comparison to:
	// tried before either side is touched.
	Out, HTML string
	Log       io.Writer
	Version   string
	Inputs    []string // the files the command reads, never overwritten
	// OnRun, if set, is told each measured run as it ends.
	OnRun func(side string, round int, r *run.Result)
}

// The ranges of ab's own numbers.
var (
	RoundsRange    = config.RoundsRange // the command line's table of numeric flags holds these two
	VerifyRange    = config.VerifyRange
	ThresholdRange = config.Range{Min: 0, AboveMin: true, Max: 10, What: "a share (0.10 or 10%)"}
	AlphaRange     = config.Range{Min: 0, AboveMin: true, Max: 0.5, What: "a significance level (0.01)"}
)

// Numbers are ab's own numbers as a command line writes them (a share
// may be "10%").
type Numbers struct {
	Threshold, Alpha string
	Rounds, Verify   int
}

// SetNumbers reads n through the one rule for numbers, every mistake at
// once (each named by its flag).
func (o *Options) SetNumbers(n Numbers) error {
	var es config.Errors
	var err error
	o.Judge.Threshold, err = config.ParseShareFrom(config.FlagSource("threshold"), n.Threshold, ThresholdRange)
	es.Add(err)
	o.Judge.Alpha, err = config.ParseNumber(config.FlagSource("alpha"), n.Alpha, AlphaRange)
	es.Add(err)
	es.Add(config.CheckNumber(config.FlagSource("rounds"), float64(n.Rounds), RoundsRange))
	es.Add(config.CheckNumber(config.FlagSource("verify"), float64(n.Verify), VerifyRange))
	o.Rounds, o.Verify = n.Rounds, n.Verify
	return es.Err()
}

// check refuses what can be refused before either side is touched: no
// candidate, one deployment twice (as text) unless asked for, --parallel
// without a rate, an output that cannot be written.
func (o *Options) check() error {
	switch {
	case o.CandidateURI == "":
		return usage("ab compares two deployments: give the candidate with --candidate-uri (the baseline is --uri)")
	case mongodb.CheckURI(o.CandidateURI) != nil:
		return &config.Error{Kind: config.BadURI, Field: "--candidate-uri", Msg: mongodb.CheckURI(o.CandidateURI).Error()}
	case strings.TrimSpace(o.CandidateURI) == strings.TrimSpace(o.Config.Connection.URI) && !o.AllowSame:
		return usage("--uri and --candidate-uri are the same deployment: an A/A run (which shows the comparison's own noise: it should flag nothing) needs --allow-same")
	case o.Parallel && o.Config.Run.Rate <= 0:
		return usage("--parallel runs both sides at the same open-loop rate: give --rate (ops/s)")
	}
	if err := results.CheckDistinct(results.Output{What: "ab file (--out)", Path: o.Out}, results.Output{What: "HTML report (--html)", Path: o.HTML}); err != nil {
		return fail(run.Output, err)
	}
	for _, p := range []string{o.Out, o.HTML} {
		if p != "" {
			if err := results.CheckWritableAs("ab file", p, o.Inputs...); err != nil {
				return fail(run.Output, err)
			}
		}
	}
	return nil
}

// sides are the baseline's and the candidate's configuration and plan:
// one operation sequence on both (the same seeds), no results file of
// either's own (the A/B file holds every run).
func (o *Options) sides() ([2]side, error) {
	a, b := *o.Config, *o.Config
	a.Run.Out, b.Run.Out = "", ""
	b.Connection.URI = o.CandidateURI
	planB, err := workload.Compile(&b)
	if err != nil {
		return [2]side{}, fmt.Errorf("the candidate's plan: %w", err)
	}
	return [2]side{{name: "A", cfg: &a, plan: o.Plan}, {name: "B", cfg: &b, plan: planB}}, nil
}

// side is one deployment's configuration and plan.
type side struct {
	name string
	cfg  *config.Config
	plan *workload.Plan
}

func usage(msg string) error { return fail(run.Usage, errors.New(msg)) }

// ErrDataDiffer: the two sides hold different data and mongoload did not
// seed them, so no result could be compared.
var ErrDataDiffer = errors.New("the two sides hold different data")

// fail gives err a run's kind of failure (the command picks the exit code).
func fail(k run.Kind, err error) error {
	if err == nil {
		return nil
	}
	return &run.Error{Kind: k, Err: err}
}
