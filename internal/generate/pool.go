package generate

import (
	"errors"
	"hash/fnv"
	"math/rand/v2"

	"github.com/brianvoe/gofakeit/v7"
	"go.mongodb.org/mongo-driver/v2/bson"
)

// pool hands out values drawn at compile time, so realistic values (names,
// cities, sentences) cost a copy on the hot path instead of gofakeit's
// allocations.
type pool struct {
	buf   []byte      // the encoded values, back to back
	offs  []uint32    // value i is buf[offs[i]:offs[i+1]]
	types []bson.Type // value i has type types[i]
}

// Append implements Generator.
func (p *pool) Append(dst []byte, st *State) (bson.Type, []byte) {
	i := st.Rand.IntN(len(p.types))
	return p.types[i], append(dst, p.buf[p.offs[i]:p.offs[i+1]]...)
}

// poolDraw appends one freshly drawn value to dst.
type poolDraw func(dst []byte) (bson.Type, []byte, error)

// poolAttempts bounds the draws per pool entry: small vocabularies (there
// are only so many countries) end up with fewer than size values instead of
// looping forever.
const poolAttempts = 4

// maxPoolBytes bounds a pool's memory: a pool of long values (paragraphs,
// faker providers that return files) stops growing past it.
const maxPoolBytes = 64 << 20

// buildPool draws up to size distinct values. Values are distinct so that
// a pool of n names gives an indexed field n distinct keys; each is then
// equally likely.
func buildPool(size int, draw poolDraw) (Generator, error) {
	p := &pool{offs: []uint32{0}}
	seen := make(map[string]bool, size)
	for try := 0; len(p.types) < size && try < poolAttempts*size && len(p.buf) < maxPoolBytes; try++ {
		mark := len(p.buf)
		t, buf, err := draw(p.buf)
		if err != nil {
			return nil, err
		}
		key := string(buf[mark:]) + string(rune(t))
		if seen[key] {
			p.buf = buf[:mark]
			continue
		}
		seen[key] = true
		p.buf = buf
		p.offs = append(p.offs, uint32(len(buf)))
		p.types = append(p.types, t)
	}
	switch len(p.types) {
	case 0:
		return nil, errors.New("no values could be drawn")
	case 1:
		return &literal{t: p.types[0], b: p.buf}, nil
	}
	return p, nil
}

// faker returns a gofakeit source seeded from the run's seed and label, so
// that a run is reproducible and every generator with the same definition
// (say, "city" in two collections) draws the same pool: values then join
// across collections.
func (c *compiler) faker(label string) *gofakeit.Faker {
	h := fnv.New64a()
	h.Write([]byte(label))
	s := splitmix(c.env.Seed ^ h.Sum64())
	// Unlocked: the source serves this compile only.
	return gofakeit.NewFaker(rand.NewPCG(s, splitmix(s)), false)
}

// splitmix is the SplitMix64 finalizer, which spreads nearby seeds apart.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// stringPool builds a pool of strings made by text.
func (p *params) stringPool(label string, text func(f *gofakeit.Faker) string) (Generator, error) {
	f := p.c.faker(label)
	g, err := buildPool(p.c.env.PoolSize, func(dst []byte) (bson.Type, []byte, error) {
		return bson.TypeString, appendString(dst, text(f)), nil
	})
	if err != nil {
		p.fail(0, "%v", err)
	}
	return p.done(g)
}
