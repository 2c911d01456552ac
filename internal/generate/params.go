package generate

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/mongoload/mongoload/internal/config"
)

// The parameters every generator accepts.
const (
	paramNull    = "nullProbability"    // the value becomes BSON null
	paramMissing = "missingProbability" // the field is left out (document fields only)
)

// params reads the parameters of one generator call. It remembers the
// first problem, so builders read straight through and report once at the
// end (done), instead of checking an error after every parameter.
type params struct {
	gen string
	v   *config.Value
	c   *compiler
	err *config.Error
}

// fail records a problem with the generator's parameters at line (the
// generator's own line when 0).
func (p *params) fail(line int, format string, args ...any) {
	if p.err != nil {
		return
	}
	if line == 0 {
		line = p.v.Line
	}
	p.err = config.Errorf(config.Invalid, line, "generator %q: %s", p.gen, fmt.Sprintf(format, args...))
}

// done returns g, or the first problem. (Returning p.err directly would
// turn a nil *config.Error into a non-nil error.)
func (p *params) done(g Generator) (Generator, error) {
	if p.err != nil {
		return nil, p.err
	}
	return g, nil
}

// checkKnown rejects parameters the generator does not have.
func (p *params) checkKnown(names []string, field bool) {
	known := append(slices.Clip(names), paramNull)
	if field {
		known = append(known, paramMissing)
	}
	for _, f := range p.v.Fields {
		switch {
		case slices.Contains(known, f.Key):
		case f.Key == paramMissing:
			p.fail(f.Value.Line, "%s applies only to document fields", paramMissing)
		default:
			p.fail(f.Value.Line, "unknown parameter %q%s", f.Key, config.DidYouMean(f.Key, known))
		}
	}
}

// get returns the parameter named key.
func (p *params) get(key string) (config.Value, bool) {
	v, ok := p.v.Param(key)
	if ok && v.Kind == config.KindNull {
		return v, false // "key: null" reads as absent
	}
	return v, ok
}

// int reads an integer parameter; integral floats such as 1e6 are accepted.
func (p *params) int(key string, def int64) int64 {
	v, ok := p.get(key)
	if !ok {
		return def
	}
	switch s := v.Scalar.(type) {
	case int64:
		return s
	case float64:
		if s == math.Trunc(s) && math.Abs(s) < 1<<63 {
			return int64(s)
		}
	}
	p.fail(v.Line, "%s must be an integer, got %s", key, v)
	return def
}

// intIn reads an integer parameter that must lie in [lo, hi].
func (p *params) intIn(key string, def, lo, hi int64) int64 {
	i := p.int(key, def)
	if i < lo || i > hi {
		v, _ := p.get(key)
		p.fail(v.Line, "%s %d is out of range [%d, %d]", key, i, lo, hi)
		return def
	}
	return i
}

// float reads a finite number parameter.
func (p *params) float(key string, def float64) float64 {
	v, ok := p.get(key)
	if !ok {
		return def
	}
	switch s := v.Scalar.(type) {
	case int64:
		return float64(s)
	case float64:
		if !math.IsInf(s, 0) && !math.IsNaN(s) {
			return s
		}
	}
	p.fail(v.Line, "%s must be a finite number, got %s", key, v)
	return def
}

// prob reads a probability in [0, 1].
func (p *params) prob(key string, def float64) float64 {
	f := p.float(key, def)
	if !(f >= 0 && f <= 1) {
		v, _ := p.get(key)
		p.fail(v.Line, "%s must be between 0 and 1, got %v", key, f)
		return def
	}
	return f
}

// boolean reads a true/false parameter.
func (p *params) boolean(key string, def bool) bool {
	v, ok := p.get(key)
	if !ok {
		return def
	}
	if b, isBool := v.Scalar.(bool); isBool {
		return b
	}
	p.fail(v.Line, "%s must be true or false, got %s", key, v)
	return def
}

// str reads a string parameter.
func (p *params) str(key, def string) string {
	v, ok := p.get(key)
	if !ok {
		return def
	}
	if s, isStr := v.Scalar.(string); isStr {
		return s
	}
	p.fail(v.Line, "%s must be a string, got %s (quote it)", key, v)
	return def
}

// dateLayouts are the string forms a date parameter may take, besides a
// YAML timestamp.
var dateLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02"}

// time reads a date parameter: a YAML timestamp or a string in RFC 3339 or
// 2006-01-02 form (UTC unless it carries a zone).
func (p *params) time(key string, def time.Time) time.Time {
	v, ok := p.get(key)
	if !ok {
		return def
	}
	switch s := v.Scalar.(type) {
	case time.Time:
		return s
	case string:
		for _, layout := range dateLayouts {
			if t, err := time.Parse(layout, s); err == nil {
				return t
			}
		}
	}
	p.fail(v.Line, "%s must be a date such as 2024-01-31 or 2024-01-31T12:00:00Z, got %s", key, v)
	return def
}

// intRange reads min and max, which must lie in [lo, hi] with min <= max.
// When only one is given, the other's default yields to it, so that
// {max: 3} on a default range of 10 to 10 means 3 to 3, not an error.
func (p *params) intRange(defMin, defMax, lo, hi int64) (int64, int64) {
	_, hasMin := p.get("min")
	_, hasMax := p.get("max")
	mn := p.intIn("min", defMin, lo, hi)
	mx := p.intIn("max", defMax, lo, hi)
	switch {
	case hasMin && !hasMax:
		mx = max(mx, mn)
	case hasMax && !hasMin:
		mn = min(mn, mx)
	}
	if mn > mx {
		p.fail(0, "min %d is greater than max %d", mn, mx)
	}
	return mn, mx
}

// floatRange reads min and max as numbers, min <= max, the defaults
// yielding as in intRange.
func (p *params) floatRange(defMin, defMax float64) (float64, float64) {
	_, hasMin := p.get("min")
	_, hasMax := p.get("max")
	mn, mx := p.float("min", defMin), p.float("max", defMax)
	switch {
	case hasMin && !hasMax:
		mx = max(mx, mn)
	case hasMax && !hasMin:
		mn = min(mn, mx)
	}
	if mn > mx {
		p.fail(0, "min %v is greater than max %v", mn, mx)
	}
	return mn, mx
}

// lengths reads either length or min and max, each in [0, limit].
func (p *params) lengths(defMin, defMax, limit int64) (int64, int64) {
	if _, ok := p.get("length"); ok {
		if _, hasMin := p.get("min"); hasMin {
			p.fail(0, "give either length or min and max, not both")
		} else if _, hasMax := p.get("max"); hasMax {
			p.fail(0, "give either length or min and max, not both")
		}
		n := p.intIn("length", defMin, 0, limit)
		return n, n
	}
	return p.intRange(defMin, defMax, 0, limit)
}
