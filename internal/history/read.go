package history

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

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
	return Analyse(spec, entries, o)
}

// ParseOptions reads the history command's --since, --threshold and
// --p-value (now is when --since 30d counts back from).
func ParseOptions(since, threshold, pvalue string, now time.Time) (Options, Query, error) {
	o := Options{Method: DefaultMethod, Threshold: DefaultThreshold}
	var q Query
	if since != "" {
		t, err := parseSince(since, now)
		if err != nil {
			return o, q, err
		}
		q.Since = t
	}
	pct, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(threshold, "%")), 64)
	if err != nil || pct < 0 || pct >= 1000 {
		return o, q, fmt.Errorf("--threshold %q: give a percentage such as 5%%", threshold)
	}
	o.Threshold = pct / 100
	p, err := strconv.ParseFloat(pvalue, 64)
	if err != nil || p <= 0 || p >= 1 {
		return o, q, fmt.Errorf("--p-value %q: give a significance level between 0 and 1, such as 0.05", pvalue)
	}
	o.Method.PValue = p
	return o, q, nil
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
	return time.Time{}, fmt.Errorf("--since %q: give a date (2026-11-01), an RFC 3339 time or an age (30d, 12h)", s)
}
