package generate

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/brianvoe/gofakeit/v7"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongoload/mongoload/internal/config"
)

// buildFaker: faker {provider, params}, any gofakeit function by its
// lookup name ("city", "hackerphrase", "number"), with optional provider
// parameters such as params: {min: 1, max: 9}. Values come from a pool.
func buildFaker(p *params) (Generator, error) {
	name := p.str("provider", "")
	if name == "" && p.err == nil {
		p.fail(0, "provider is required, for example provider: hackerphrase")
	}
	info := lookupProvider(name)
	if info == nil && p.err == nil {
		p.fail(0, "unknown provider %q%s", name, config.DidYouMean(name, providerNames()))
	}
	m := p.providerParams()
	if p.err != nil {
		return p.done(nil)
	}
	f := p.c.faker("faker:" + name + ":" + fmt.Sprint(*m))
	g, err := buildPool(p.c.env.PoolSize, func(dst []byte) (bson.Type, []byte, error) {
		return drawProvider(dst, f, info, m)
	})
	if err != nil {
		p.fail(0, "provider %q: %v", name, err)
	}
	return p.done(g)
}

// lookupProvider finds a gofakeit function; lookup names are lowercase,
// so "jobTitle" finds "jobtitle".
func lookupProvider(name string) *gofakeit.Info {
	if name == "" {
		return nil
	}
	if info := gofakeit.GetFuncLookup(name); info != nil {
		return info
	}
	return gofakeit.GetFuncLookup(strings.ToLower(name))
}

// providerNames lists gofakeit's functions, sorted so that suggestions do
// not depend on map order.
func providerNames() []string {
	return slices.Sorted(maps.Keys(gofakeit.FuncLookups))
}

// providerParams converts the params document to gofakeit's string map.
func (p *params) providerParams() *gofakeit.MapParams {
	m := gofakeit.NewMapParams()
	v, ok := p.get("params")
	if !ok {
		return m
	}
	if v.Kind != config.KindDoc {
		p.fail(v.Line, "params must be a document such as {min: 1, max: 9}, got %s", v)
		return m
	}
	for _, f := range v.Fields {
		items := []config.Value{f.Value}
		if f.Value.Kind == config.KindArray {
			items = f.Value.Items
		}
		for _, it := range items {
			if it.Kind != config.KindScalar {
				p.fail(it.Line, "params.%s must be a scalar or a list of scalars, got %s", f.Key, it)
				return m
			}
			m.Add(f.Key, scalarText(it.Scalar))
		}
	}
	return m
}

// scalarText renders a scalar the way gofakeit parses parameters.
func scalarText(s any) string {
	if t, ok := s.(time.Time); ok {
		return t.Format(time.RFC3339)
	}
	return fmt.Sprint(s)
}

// drawProvider appends one value of a gofakeit function. Text comes back
// as a string; other results are encoded as the driver would encode them.
// gofakeit functions are third-party code fed user parameters: a panic
// becomes an error, because a template must never crash the process.
func drawProvider(dst []byte, f *gofakeit.Faker, info *gofakeit.Info, m *gofakeit.MapParams) (t bson.Type, out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			t, out, err = 0, dst, fmt.Errorf("failed: %v", r)
		}
	}()
	v, err := info.Generate(f, m, info)
	if err != nil {
		return 0, dst, err
	}
	if b, ok := v.([]byte); ok && utf8.Valid(b) {
		v = string(b)
	}
	if s, ok := v.(string); ok {
		return bson.TypeString, appendString(dst, s), nil
	}
	vt, vb, err := bson.MarshalValue(v)
	if err != nil {
		return bson.TypeString, appendString(dst, fmt.Sprint(v)), nil
	}
	return vt, append(dst, vb...), nil
}
