package history

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mongoload/mongoload/internal/config"
	"github.com/mongoload/mongoload/internal/mongodb"
	"github.com/mongoload/mongoload/internal/results"
)

// The failures of a MongoDB store's connection, for the caller's exit code.
var (
	ErrUnreachable = mongodb.ErrUnreachable
	ErrAuth        = mongodb.ErrAuth
)

// ErrUnfinished is a result that Keep leaves out: a run interrupted or
// that lost its server measured less than its plan, not the build.
var ErrUnfinished = errors.New("the run did not finish")

// Read opens the store spec names, reads the entries q selects and
// analyses them.
func Read(ctx context.Context, spec string, q Query, o Options) (*results.History, error) {
	s, err := Open(ctx, spec, false)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	entries, err := s.Entries(ctx, q)
	if err != nil {
		return nil, err
	}
	h, err := Analyse(spec, entries, o)
	if d, ok := s.(interface{ Skipped() []string }); ok && h != nil {
		h.Skipped = d.Skipped()
	}
	return h, err
}

// The ranges of the history command's numbers (config/number.go's rule:
// exit 12, the flag and its range named).
var (
	// ThresholdRange is --threshold in percent, "%" optional.
	ThresholdRange = config.Range{Min: 0, Max: 1000, What: "a worsening in percent (5% or 5)"}
	// PValueRange is --p-value: below 1/(permutations+1) no split can be
	// significant; above 0.5 more than half the splits of pure noise are.
	PValueRange = config.Range{Min: 1 / float64(DefaultMethod.Permutations+1), Max: 0.5, What: "a significance level"}
)

// ParseOptions reads the history command's --since, --threshold and
// --p-value (now is when --since 30d counts back from); every bad value
// is refused at once, each naming its flag (config.Errors: exit 12).
func ParseOptions(since, threshold, pvalue string, now time.Time) (Options, Query, error) {
	o := Options{Method: DefaultMethod, Threshold: DefaultThreshold}
	var q Query
	var bad config.Errors
	if since != "" {
		t, err := parseSince(since, now)
		bad.Add(err)
		q.Since = t
	}
	pct, err := parsePercent(threshold)
	bad.Add(err)
	o.Threshold = pct / 100
	o.Method.PValue, err = config.ParseNumber(config.FlagSource("p-value"), pvalue, PValueRange)
	bad.Add(err)
	return o, q, bad.Err()
}

// parsePercent reads --threshold: a percentage, its "%" optional ("5%",
// "5"), refused naming the text as given.
func parsePercent(text string) (float64, error) {
	src := config.FlagSource("threshold")
	v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text), "%")), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, src.Refuse(fmt.Errorf("%q is not a percentage: give %s", text, ThresholdRange))
	}
	if err := ThresholdRange.Check(v); err != nil {
		return 0, src.Refuse(fmt.Errorf("%q: %w", text, err))
	}
	return v, nil
}

func parseSince(s string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	if days, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.ParseFloat(days, 64); err == nil && n >= 0 {
			return now.Add(-time.Duration(n * 24 * float64(time.Hour))), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, config.FlagSource("since").Refuse(fmt.Errorf("%q: give a date (2026-11-01), an RFC 3339 time or an age (30d, 12h)", s))
}
