package capture

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/mongoload/mongoload/internal/capture/source"
)

// A sampled profiler sees one operation in N, with its values; $queryStats
// sees every read, without values. Read together, the profiler's read
// shapes take $queryStats' counts (and documents returned) and keep their
// own values; the shapes only the profiler saw (writes, which $queryStats
// does not record) are scaled to the same window: divided by the sample
// rate, times the ratio of the two windows. Shapes are matched on their
// normalised key: $queryStats writes {f: x} as {f: {$eq: ?string}}, a
// limit and $in's list as placeholders.

var (
	reEq      = regexp.MustCompile(`\{\$eq:(\?[a-zA-Z]+)\}`)
	reArray   = regexp.MustCompile(`\?array<[^>]*>|\[(\?[a-zA-Z]+)+\]`)
	reHole    = regexp.MustCompile(`\?[a-zA-Z]+`)
	reLimitQS = regexp.MustCompile(` limit:\?`)
)

// normKey is a shape's key with every placeholder alike.
func normKey(key string) string {
	key = reEq.ReplaceAllString(key, "$1")
	key = reArray.ReplaceAllString(key, "?[]")
	key = reLimitQS.ReplaceAllString(key, "")
	return reHole.ReplaceAllString(key, "?")
}

// weightByQueryStats applies $queryStats' counts to the other sources'
// shapes, once; it says what it did ("" when there was nothing to weigh).
func (r *Result) weightByQueryStats() string {
	if r.weighed {
		return r.weightNote
	}
	r.weighed = true
	var qs *source.Source
	var others []*source.Source
	for _, s := range r.Sources {
		switch {
		case s.Name == "$queryStats":
			qs = s
		case s.Executions > 0:
			others = append(others, s)
		}
	}
	if qs == nil || qs.Executions == 0 || len(others) == 0 {
		return ""
	}
	type group struct{ agg, aggRet, own float64 }
	groups := map[string]*group{}
	for _, sh := range r.Shapes.Order {
		g := groups[normKey(sh.Key)]
		if g == nil {
			g = &group{}
			groups[normKey(sh.Key)] = g
		}
		g.agg += sh.AggCount
		g.aggRet += sh.AggReturned
		g.own += sh.Count - sh.AggCount
	}
	scale, why := r.otherScale(qs, others)
	matched, scaled := 0, 0
	var keep []*Shape
	for _, sh := range r.Shapes.Order {
		g := groups[normKey(sh.Key)]
		own, ownRet := sh.Count-sh.AggCount, sh.Returned-sh.AggReturned
		switch {
		case own > 0 && g.agg > 0: // the profiler's values, $queryStats' counts
			sh.Count, sh.Returned = g.agg*own/g.own, g.aggRet*own/g.own
			matched++
		case own > 0:
			sh.Count, sh.Returned = own*scale, ownRet*scale
			scaled++
		case g.own > 0:
			continue // $queryStats' twin of a shape that took its counts
		}
		sh.AggCount, sh.AggReturned = 0, 0
		keep = append(keep, sh)
	}
	r.Shapes.Order = keep
	r.weightNote = fmt.Sprintf("weighted: %d shapes seen with their values by %s take $queryStats' executions (every read); %d shapes $queryStats did not record (writes) are scaled by %.4g (%s)",
		matched, names(others), scaled, scale, why)
	return r.weightNote
}

// otherScale turns the other sources' counts into $queryStats' window:
// divided by their sample rate, times the ratio of the windows.
func (r *Result) otherScale(qs *source.Source, others []*source.Source) (float64, string) {
	scale, parts := 1.0, []string{}
	var span float64
	for _, s := range others {
		if s.Sampling > 0 && s.Sampling < 1 {
			scale /= s.Sampling
			parts = append(parts, fmt.Sprintf("sampleRate %g", s.Sampling))
		}
		span += s.To.Sub(s.From).Seconds()
	}
	if q := qs.To.Sub(qs.From).Seconds(); qs.Complete && q > 0 && span > 0 {
		scale *= q / span
		parts = append(parts, fmt.Sprintf("windows %.0fs of $queryStats over %.0fs", q, span))
	}
	if len(parts) == 0 {
		parts = append(parts, "as counted")
	}
	return scale, strings.Join(parts, ", ")
}

func names(ss []*source.Source) string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Name)
	}
	return strings.Join(out, ", ")
}
