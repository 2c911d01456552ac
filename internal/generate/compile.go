package generate

import (
	"github.com/mongoload/mongoload/internal/config"
)

// compiler carries what compiling one template needs.
type compiler struct {
	env Env
}

func newCompiler(env *Env) *compiler {
	c := &compiler{}
	if env != nil {
		c.env = *env
	}
	if c.env.PoolSize <= 0 {
		c.env.PoolSize = defaultPoolSize
	}
	return c
}

// value compiles any template value that is not a document field.
func (c *compiler) value(v config.Value) (Generator, error) {
	switch v.Kind {
	case config.KindNull:
		return nullLiteral, nil
	case config.KindScalar:
		return scalarLiteral(v)
	case config.KindDoc:
		return c.document(v)
	case config.KindArray:
		return c.array(v)
	case config.KindGen:
		g, _, err := c.gen(v, false)
		return g, err
	}
	return nil, config.Errorf(config.Invalid, v.Line, "unknown template value kind %d", v.Kind)
}

// field compiles the value of a document field, where a generator may also
// carry missingProbability.
func (c *compiler) field(v config.Value) (Generator, float64, error) {
	if v.Kind == config.KindGen {
		return c.gen(v, true)
	}
	g, err := c.value(v)
	return g, 0, err
}

// gen compiles a generator call: it looks the name up, reads the common
// parameters, rejects unknown ones and builds the generator.
func (c *compiler) gen(v config.Value, field bool) (Generator, float64, error) {
	s, ok := registry[v.Gen]
	if !ok {
		return nil, 0, config.Errorf(config.UnknownGenerator, v.Line, "unknown generator %q%s", v.Gen, config.DidYouMean(v.Gen, Names()))
	}
	p := &params{gen: v.Gen, v: &v, c: c}
	p.checkKnown(s.params, field)
	null := p.prob(paramNull, 0)
	missing := 0.0
	if field {
		missing = p.prob(paramMissing, 0)
	}
	if p.err != nil {
		return nil, 0, p.err
	}
	g, err := s.build(p)
	if err != nil {
		return nil, 0, err
	}
	return nullable(g, null), missing, nil
}
