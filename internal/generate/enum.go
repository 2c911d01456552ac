package generate

import (
	"math"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/config"
)

// enumGen picks one of its values, uniformly or by weight.
type enumGen struct {
	values []Generator
	cum    []float64 // cumulative weights; nil when uniform
}

// Append implements Generator.
func (g *enumGen) Append(dst []byte, st *State) (bson.Type, []byte) {
	return g.values[g.pick(st)].Append(dst, st)
}

// pick draws an index: the first whose cumulative weight exceeds a uniform
// draw over the total, found by binary search.
func (g *enumGen) pick(st *State) int {
	if g.cum == nil {
		return st.Rand.IntN(len(g.values))
	}
	u := st.Rand.Float64() * g.cum[len(g.cum)-1]
	lo, hi := 0, len(g.cum)-1
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if g.cum[mid] > u {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// buildEnum: enum {values, weights}. Values may be any template values,
// generators included; weights, when given, are one non-negative number
// per value with a positive sum.
func buildEnum(p *params) (Generator, error) {
	vals, ok := p.get("values")
	if !ok || vals.Kind != config.KindArray || len(vals.Items) == 0 {
		p.fail(vals.Line, "values must be a non-empty list, for example values: [red, green, blue]")
		return p.done(nil)
	}
	g := &enumGen{cum: p.weights(len(vals.Items))}
	for _, it := range vals.Items {
		if p.err != nil {
			break
		}
		v, err := p.c.value(it)
		if err != nil {
			return nil, err
		}
		g.values = append(g.values, v)
	}
	if len(g.values) == 1 {
		return p.done(g.values[0])
	}
	return p.done(g)
}

// weights reads the cumulative weights of n values, nil when absent.
func (p *params) weights(n int) []float64 {
	w, ok := p.get("weights")
	if !ok {
		return nil
	}
	if w.Kind != config.KindArray || len(w.Items) != n {
		p.fail(w.Line, "weights must be a list of %d numbers, one per value, got %s", n, w)
		return nil
	}
	cum := make([]float64, n)
	total := 0.0
	for i, it := range w.Items {
		x, isNum := number(it)
		if !isNum || x < 0 || math.IsInf(x, 0) || math.IsNaN(x) {
			p.fail(it.Line, "weights[%d] must be a non-negative number, got %s", i, it)
			return nil
		}
		total += x
		cum[i] = total
	}
	if !(total > 0) || math.IsInf(total, 0) {
		p.fail(w.Line, "weights must have a positive, finite sum")
		return nil
	}
	return cum
}

// number returns a numeric scalar as a float64.
func number(v config.Value) (float64, bool) {
	switch s := v.Scalar.(type) {
	case int64:
		return float64(s), true
	case float64:
		return s, true
	}
	return 0, false
}
